import { BedrockRuntimeClient, type BedrockRuntimeClientConfig } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { ResolvedProviderConfig } from '../shared/provider-config.js';

/**
 * A Bedrock runtime client for `config`: one attempt (toolseam retries itself), the configured region,
 * endpoint and credentials, over HTTP/1.1 with a socket timeout.
 */
export function bedrockClient(config: ResolvedProviderConfig): BedrockRuntimeClient {
  const clientConfig: BedrockRuntimeClientConfig = {
    maxAttempts: 1,
    // HTTP/1.1: Bedrock needs no HTTP/2, and plain HTTP endpoints (proxies, stand-ins) speak 1.1. A
    // stream gone silent fails after timeoutMs instead of waiting forever (Node's fetch, under the
    // other SDKs, gives up on a silent body after 5 minutes; this handler never does on its own).
    requestHandler: new NodeHttpHandler({ socketTimeout: config.timeoutMs }),
  };
  if (config.region) clientConfig.region = config.region;
  if (config.baseURL) clientConfig.endpoint = config.baseURL;
  if (config.credentials) clientConfig.credentials = config.credentials;
  return new BedrockRuntimeClient(clientConfig);
}

import { InputError } from '../../core/errors.js';
import {
  type AwsCredentials,
  type Environment,
  firstSet,
  type ProviderConfig,
  type ProviderDefaults,
} from '../shared/provider-config.js';

/** The credentials a Bedrock endpoint on this machine is signed with when the person set none. */
export const LOCAL_AWS_CREDENTIALS: AwsCredentials = {
  accessKeyId: 'toolseam-local-no-credentials',
  secretAccessKey: 'toolseam-local-no-credentials',
};

/** True when the environment names AWS credentials someone chose: a key pair, or a profile. */
function awsCredentialsSet(env: Environment): boolean {
  const pair = firstSet(env, ['AWS_ACCESS_KEY_ID']) && firstSet(env, ['AWS_SECRET_ACCESS_KEY']);
  return Boolean(pair || firstSet(env, ['AWS_PROFILE']));
}

/** The region and credentials a Converse request is signed with. */
function bedrockAccess(config: ProviderConfig, env: Environment, onThisMachine: boolean) {
  // a server on this machine (the stand-in, a local proxy) ignores the region: any one signs the request
  const region =
    config.region ??
    firstSet(env, ['AWS_REGION', 'AWS_DEFAULT_REGION']) ??
    (onThisMachine ? 'us-east-1' : undefined);
  if (!region) {
    throw new InputError('Bedrock needs an AWS region: pass region or set AWS_REGION.');
  }
  // ...and needs no credentials: unless the person set some, it gets a placeholder, so the AWS chain never
  // goes looking (a profile file, SSO, an instance role) for a real one to sign a request to it with
  const credentials =
    config.credentials ?? (onThisMachine && !awsCredentialsSet(env) ? LOCAL_AWS_CREDENTIALS : undefined);
  return { region, credentials };
}

/** Where Bedrock is reached: the AWS SDK finds the regional endpoint; a URL only points elsewhere. */
export const BEDROCK_ENDPOINT: ProviderDefaults = {
  family: 'bedrock',
  keyVars: [],
  baseURLVars: ['BEDROCK_ENDPOINT_URL'],
  keyRequired: false,
  access: bedrockAccess,
};

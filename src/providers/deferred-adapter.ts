import { ProviderError } from '../core/errors.js';
import type { ModelAdapter, ModelEvent, ModelRequest, WireTool } from '../core/model.js';
import { OPENAI_MAX_TOOLS } from './openai/openai-endpoints.js';
import type { ResolvedProviderConfig, WireFamily } from './shared/provider-config.js';
import { transportProviderError } from './shared/provider-errors.js';
import type { RejectionDialect } from './shared/rejection-dialect.js';
import { toolsAttributedInRejection, toolsNamedInRejection } from './shared/tools-named-in-rejection.js';

/** A family's adapter, as every one of them is built on `SdkModelAdapter`. */
type FamilyAdapter = ModelAdapter & Required<Pick<ModelAdapter, 'toolsAttributedInRejection'>>;

/** Each family's adapter module (and through it the SDK), imported on the first call. */
const FAMILY_MODULES = {
  anthropic: () => import('./anthropic/anthropic-adapter.js'),
  bedrock: () => import('./bedrock/bedrock-adapter.js'),
  openai: () => import('./openai/openai-adapter.js'),
} as const;

/** Imports the module of `config`'s family and makes its adapter. */
async function familyAdapter(
  config: ResolvedProviderConfig,
  dialects: readonly RejectionDialect[],
): Promise<FamilyAdapter> {
  switch (config.family) {
    case 'anthropic':
      return new (await FAMILY_MODULES.anthropic()).AnthropicAdapter(config, { dialects });
    case 'bedrock':
      return new (await FAMILY_MODULES.bedrock()).BedrockAdapter(config, { dialects });
    case 'openai':
      return new (await FAMILY_MODULES.openai()).OpenAIAdapter(config, { dialects });
  }
}

/**
 * Starts importing `family`'s adapter and SDK now, for a program about to send its first request (the
 * adapter then finds them loaded). A failure is left for that first call to report.
 */
export function preloadFamily(family: WireFamily): void {
  FAMILY_MODULES[family]().catch(() => undefined);
}

/**
 * The adapter `createModelAdapter` hands out: its family's code (the adapter, and through it the SDK) is
 * imported on the first call, so a program loads only the families it talks to. Until then no error of
 * the family can exist, so a rejection is read in the family's dialects as it stands.
 */
export class DeferredAdapter implements ModelAdapter {
  readonly provider: string;
  readonly model: string;
  readonly maxTools?: number;
  private loading: Promise<FamilyAdapter> | undefined;
  private loaded: FamilyAdapter | undefined;

  constructor(
    private readonly config: ResolvedProviderConfig,
    private readonly dialects: readonly RejectionDialect[],
  ) {
    this.provider = config.provider;
    this.model = config.model;
    if (config.family === 'openai') this.maxTools = OPENAI_MAX_TOOLS;
  }

  stream(request: ModelRequest): AsyncIterable<ModelEvent> {
    // once loaded, the family's own stream is handed out: a wrapping generator cost each event a hop
    return this.loaded ? this.loaded.stream(request) : this.streamOnceLoaded(request);
  }

  toolsNamedInRejection(error: unknown, sent: readonly WireTool[]): string[] {
    if (this.loaded) return this.loaded.toolsNamedInRejection(error, sent);
    return error instanceof ProviderError ? toolsNamedInRejection(error, sent, this.dialects) : [];
  }

  toolsAttributedInRejection(error: unknown, sent: readonly WireTool[]): string[] {
    if (this.loaded) return this.loaded.toolsAttributedInRejection(error, sent);
    return error instanceof ProviderError ? toolsAttributedInRejection(error, sent, this.dialects) : [];
  }

  private async *streamOnceLoaded(request: ModelRequest): AsyncGenerator<ModelEvent> {
    yield* (await this.adapter()).stream(request);
  }

  private adapter(): Promise<FamilyAdapter> {
    this.loading ??= familyAdapter(this.config, this.dialects).then(
      (adapter) => {
        this.loaded = adapter;
        return adapter;
      },
      (error: unknown) => {
        this.loading = undefined;
        throw transportProviderError(this.provider, 'unexpected', error);
      },
    );
    return this.loading;
  }
}

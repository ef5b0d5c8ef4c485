import type { ToolseamConfig } from '../config.js';
import { InputError } from '../core/errors.js';
import { describeModel, type ModelOrigin, modelDifference } from '../core/turn-model.js';
import { PROVIDER_NAMES, type ProviderConfig } from '../providers/index.js';
import { providerConfigFrom, type RuntimeFlagValues } from './runtime-flags.js';

const MODEL_FLAGS = [
  ['provider', 'provider'],
  ['model', 'model'],
  ['base-url', 'baseURL'],
] as const;

/**
 * The model a resumed turn goes on with: the provider, model id and base URL it started on. A model
 * flag may repeat what the turn ran on but not name something else (the whole conversation would go
 * there); the config's other model settings (key, headers, …) apply when it names the same provider.
 * A turn with no record of its model (a store older than that record) takes the flags as `chat` does.
 */
export function resumedModelFrom(
  flags: RuntimeFlagValues,
  config: ToolseamConfig,
  ran: ModelOrigin,
  env = process.env,
): ProviderConfig {
  const { provider, model } = ran;
  if (provider === undefined || model === undefined) return providerConfigFrom(flags, config, env);
  for (const [flag, key] of MODEL_FLAGS) {
    const given = flags[flag];
    if (given !== undefined && modelDifference({ [key]: given }, ran) !== undefined) {
      throw new InputError(
        `this turn ran on ${describeModel(ran)}; --${flag} ${given} names another, so leave the model flags out to go on where it started.`,
      );
    }
  }
  if (!(PROVIDER_NAMES as readonly string[]).includes(provider)) {
    throw new InputError(
      `this turn ran on ${describeModel(ran)}, which the toolseam command cannot reach; resume it from the program that started it.`,
    );
  }
  const { model: fromFile, ...rest } = config;
  const sameProvider = fromFile?.provider === provider ? { model: fromFile } : {};
  const baseURL = ran.baseURL ?? flags['base-url'];
  return providerConfigFrom(
    { provider, model, ...(baseURL ? { 'base-url': baseURL } : {}) },
    { ...rest, ...sameProvider },
    env,
  );
}

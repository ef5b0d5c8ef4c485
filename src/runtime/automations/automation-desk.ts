import type { AutomationPatch, AutomationRecord, NewAutomation } from '../../core/automation-records.js';
import type { AutomationBook } from '../../core/session-store.js';
import { StoreNotFoundError } from '../../core/store-errors.js';
import type { AutomationSettings } from './automation-settings.js';
import { readCreateSpec, readPatchSpec, type SpecContext } from './automation-spec.js';

/** What the desk is built with. */
export interface AutomationDeskOptions {
  readonly store: AutomationBook;
  readonly settings: AutomationSettings;
  /** The configured agents' names. */
  readonly agents?: readonly string[];
  /** The configured notify channels, when a notifier is there to name them. */
  readonly channels?: () => readonly string[];
  readonly now?: () => number;
}

/**
 * Automations as the built-in tools and the CLI handle them: specs checked (each error naming its
 * field) before anything is stored, schedules read in the config's time zone.
 */
export class AutomationDesk {
  constructor(private readonly options: AutomationDeskOptions) {}

  get timeZone(): string {
    return this.options.settings.timeZone;
  }

  private context(): SpecContext {
    const channels = this.options.channels?.();
    return {
      settings: this.options.settings,
      agents: this.options.agents ?? [],
      ...(channels === undefined ? {} : { channels }),
      now: (this.options.now ?? Date.now)(),
    };
  }

  /** A create spec checked; throws AutomationSpecError naming the field at fault. */
  async prepareCreate(spec: unknown): Promise<NewAutomation> {
    return readCreateSpec(spec, this.context());
  }

  async create(input: NewAutomation): Promise<AutomationRecord> {
    return this.options.store.createAutomation(input);
  }

  async list(): Promise<AutomationRecord[]> {
    return this.options.store.listAutomations();
  }

  async get(idOrName: string): Promise<AutomationRecord | undefined> {
    return this.options.store.getAutomation(idOrName);
  }

  /** A patch checked against the automation it changes; throws StoreNotFoundError or AutomationSpecError. */
  async prepareUpdate(idOrName: string, patch: unknown): Promise<AutomationPatch> {
    const current = await this.options.store.getAutomation(idOrName);
    if (!current) throw new StoreNotFoundError('automation', idOrName);
    return readPatchSpec(patch, current, this.context());
  }

  async update(idOrName: string, patch: AutomationPatch): Promise<AutomationRecord> {
    return this.options.store.updateAutomation(idOrName, patch);
  }

  async delete(idOrName: string): Promise<boolean> {
    return this.options.store.deleteAutomation(idOrName);
  }
}

import { ToolseamError } from '../../core/errors.js';

/** An automation's spec that cannot be used; `field` names the part at fault (`schedule`, `budget.tokens`). */
export class AutomationSpecError extends ToolseamError {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super('automation_spec', `${field}: ${message}`);
  }
}

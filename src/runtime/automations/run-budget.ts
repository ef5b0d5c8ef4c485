import type { AutomationBudget } from '../../core/automation-records.js';
import type { ModelAdapter, ModelEvent, ModelRequest } from '../../core/model.js';

/** What one run has spent against what it may spend. */
export class RunBudget {
  requests = 0;
  tokens = 0;
  /** Set once a request was held back because the budget was spent. */
  spent = false;

  constructor(readonly limits: Required<AutomationBudget>) {}

  /** Why no further model request may be made, or undefined while there is budget left. */
  exhausted(): string | undefined {
    if (this.requests >= this.limits.modelRequests) return `its ${this.limits.modelRequests} model requests`;
    if (this.tokens >= this.limits.tokens) return `its ${this.limits.tokens} tokens`;
    return undefined;
  }

  /** One line for the run's result. */
  describe(): string {
    return `${this.requests} of ${this.limits.modelRequests} model requests and ${this.tokens} of ${this.limits.tokens} tokens`;
  }
}

/**
 * `model` counted against `budget`: each request and the tokens its answer reports. A request asked for
 * once the budget is spent is not sent: `stop` is called instead (the turn then ends as stopped, and the
 * run says why). Tokens are only what the provider reports, so an answer may take the count past the limit.
 */
export function budgetedModel(model: ModelAdapter, budget: RunBudget, stop: () => void): ModelAdapter {
  async function* stream(request: ModelRequest): AsyncIterable<ModelEvent> {
    if (budget.exhausted() !== undefined) {
      budget.spent = true;
      stop();
      return;
    }
    budget.requests += 1;
    for await (const event of model.stream(request)) {
      if (event.type === 'finish' && event.usage) {
        budget.tokens += event.usage.inputTokens + event.usage.outputTokens;
      }
      yield event;
    }
  }
  const attributed = model.toolsAttributedInRejection;
  return {
    provider: model.provider,
    model: model.model,
    ...(model.maxTools === undefined ? {} : { maxTools: model.maxTools }),
    stream,
    toolsNamedInRejection: (error, sent) => model.toolsNamedInRejection(error, sent),
    ...(attributed
      ? { toolsAttributedInRejection: (error, sent) => attributed.call(model, error, sent) }
      : {}),
  };
}

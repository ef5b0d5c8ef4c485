import { ToolseamError } from '../../core/errors.js';

/**
 * Thrown out of a `subagent_run` call whose leaves run as jobs of their own (hosted mode): the batch
 * stays in the store, the turn is parked while its leaves run on any worker, and the end of its last
 * leaf puts the turn's continuation on the job queue.
 */
export class BatchParked extends ToolseamError {
  constructor(readonly batchId: string) {
    super('batch_parked', `The turn waits for batch ${batchId}; it is parked until the batch's leaves end.`);
  }
}

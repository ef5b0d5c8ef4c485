import { ToolseamError } from '../../core/errors.js';

/** A tool was defined in a way that cannot work (a bad field spec, a clash, a safe tool that asks). */
export class ToolDefinitionError extends ToolseamError {
  readonly tool: string;
  /** The field the problem is in (`''` for the tool itself). */
  readonly path: string;

  constructor(tool: string, path: string, problem: string) {
    super('bad_tool_definition', `${tool}${path === '' ? '' : `.${path}`}: ${problem}`);
    this.tool = tool;
    this.path = path;
  }
}

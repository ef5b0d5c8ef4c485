import { ToolseamError } from '../../core/errors.js';
import { conformParameters, describeIssue, type SchemaIssue } from '../../seam/index.js';

/** Anything with a name and a declared parameters schema: a defined tool or a ToolDefinition. */
export interface DeclaredTool {
  readonly name: string;
  readonly parameters: unknown;
}

/** A tool whose declared schema the seam would have to repair, lift or leave out. */
export interface PortabilityDefect {
  readonly tool: string;
  readonly issues: readonly SchemaIssue[];
}

/** Some tools are not portable as declared; `defects` says which and why. */
export class NotPortableAsDeclared extends ToolseamError {
  readonly defects: readonly PortabilityDefect[];

  constructor(defects: readonly PortabilityDefect[]) {
    const lines = defects.flatMap((d) => d.issues.map((issue) => `${d.tool}: ${describeIssue(issue)}`));
    const count = `${defects.length} tool${defects.length === 1 ? '' : 's'}`;
    super('not_portable_as_declared', `${count} would lean on the seam:\n${lines.join('\n')}`);
    this.defects = defects;
  }
}

/** Every tool whose declared schema does not pass the portable profile untouched, with the seam's issues. */
export function portabilityDefects(tools: Iterable<DeclaredTool>): PortabilityDefect[] {
  const defects: PortabilityDefect[] = [];
  for (const tool of tools) {
    const result = conformParameters(tool.parameters);
    if (result.verdict !== 'portable' || result.issues.length > 0) {
      defects.push({ tool: tool.name, issues: result.issues });
    }
  }
  return defects;
}

/**
 * Throws NotPortableAsDeclared unless every tool's declared schema passes the portable profile as declared —
 * the rail for the platform's own tools, which never lean on a repair.
 */
export function assertPortableAsDeclared(tools: Iterable<DeclaredTool>): void {
  const defects = portabilityDefects(tools);
  if (defects.length > 0) throw new NotPortableAsDeclared(defects);
}

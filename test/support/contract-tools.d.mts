import type { InProcessTool } from '../../src/tools/fields/define-tool.js';

/** How long the `huge` tool's answer is, in characters. */
export declare const HUGE_CHARS: number;
/** The one target `guarded` refuses. */
export declare const FORBIDDEN_TARGET: string;
/** What `fail` reports, as an error result, for the reason it is given. */
export declare function failedOnPurpose(why: string): string;
/** What `throws` throws, for the reason it is given. */
export declare function thrownOnPurpose(why: string): string;
/** What a tool that reads its own arguments answers to text that is not text. */
export declare function notText(value: unknown): string;
/** Why `guarded` refuses `target`, or undefined when it takes it. */
export declare function offLimits(target: string): string | undefined;
/** What `guarded` answers when it runs on `target`. */
export declare function guardedRan(target: string): string;
/** The contract's tools, defined with the field specs of `defineTool` and `field`. */
export declare function contractTools(toolkit: {
  readonly defineTool: unknown;
  readonly field: unknown;
}): InProcessTool[];

// The tools every tool provider under contract serves (test/tools/tool-provider.contract.ts). Each kind of
// provider serves these same behaviours its own way: defined with field specs (built-ins, apps) or
// registered on an SDK server (MCP), so the kinds differ only in how a tool reaches the registry.

/** How long the `huge` tool's answer is, in characters. */
export const HUGE_CHARS = 50_000;

/** The one target `guarded` refuses. */
export const FORBIDDEN_TARGET = 'forbidden';

/** What `fail` reports, as an error result, for the reason it is given. */
export function failedOnPurpose(why) {
  return `failed on purpose: ${why}`;
}

/** What `throws` throws, for the reason it is given. */
export function thrownOnPurpose(why) {
  return `threw on purpose: ${why}`;
}

/** What a tool that reads its own arguments answers to text that is not text. */
export function notText(value) {
  return `echo takes text, not ${JSON.stringify(value)}`;
}

/** Why `guarded` refuses `target`, or undefined when it takes it. */
export function offLimits(target) {
  return target === FORBIDDEN_TARGET ? `guarded refuses ${target}: that target is off limits` : undefined;
}

/** What `guarded` answers when it runs on `target`. */
export function guardedRan(target) {
  return `guarded ran on ${target}`;
}

/** The contract's tools, defined with the field specs of `defineTool` and `field` (toolseam's own, or an app's toolkit). */
export function contractTools({ defineTool, field }) {
  const why = { why: field.string({ description: 'The reason to give' }) };
  return [
    defineTool({
      name: 'echo',
      description: 'Answers with the text it is given.',
      risk: 'safe',
      fields: { text: field.string({ description: 'The text to answer with' }) },
      handler: ({ text }) => text,
    }),
    defineTool({
      name: 'fail',
      description: 'Reports a tool error, always.',
      risk: 'safe',
      fields: why,
      handler: ({ why: reason }) => ({ content: failedOnPurpose(reason), isError: true }),
    }),
    defineTool({
      name: 'throws',
      description: 'Throws, always.',
      risk: 'safe',
      fields: why,
      handler: ({ why: reason }) => {
        throw new Error(thrownOnPurpose(reason));
      },
    }),
    defineTool({
      name: 'guarded',
      description: 'Runs on a target, refusing the one that is off limits.',
      fields: { target: field.string({ description: 'What to run on' }) },
      preflight: ({ target }) => offLimits(target),
      handler: ({ target }) => guardedRan(target),
    }),
    defineTool({
      name: 'hang',
      description: 'Never answers.',
      risk: 'safe',
      handler: () => new Promise(() => {}),
    }),
    defineTool({
      name: 'huge',
      description: 'Answers with more text than a tool result may hold.',
      risk: 'safe',
      handler: () => 'x'.repeat(HUGE_CHARS),
    }),
  ];
}

// The contract's tools as an installed app written with raw JSON schemas ({tools, invoke, preflight}): it
// reads its own arguments, as an app built without toolseam's field specs does.
import * as contract from '../contract-tools.mjs';

const takes = (...names) => ({
  type: 'object',
  properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])),
  required: names,
  additionalProperties: false,
});

const tools = [
  {
    name: 'echo',
    description: 'Answers with the text it is given.',
    risk: 'safe',
    parameters: takes('text'),
  },
  { name: 'fail', description: 'Reports a tool error, always.', risk: 'safe', parameters: takes('why') },
  { name: 'throws', description: 'Throws, always.', risk: 'safe', parameters: takes('why') },
  {
    name: 'guarded',
    description: 'Runs on a target, refusing the one that is off limits.',
    parameters: takes('target'),
  },
  { name: 'hang', description: 'Never answers.', risk: 'safe', parameters: takes() },
  {
    name: 'huge',
    description: 'Answers with more text than a tool result may hold.',
    risk: 'safe',
    parameters: takes(),
  },
];

const run = {
  echo: ({ text }) => (typeof text === 'string' ? text : { content: contract.notText(text), isError: true }),
  fail: ({ why }) => ({ content: contract.failedOnPurpose(why), isError: true }),
  throws: ({ why }) => {
    throw new Error(contract.thrownOnPurpose(why));
  },
  // Refused again when called: the call may come without its preflight.
  guarded: ({ target }) => {
    const refused = contract.offLimits(target);
    return refused === undefined
      ? contract.guardedRan(target)
      : { content: refused, isError: true, notRun: 'refused_by_tool' };
  },
  hang: () => new Promise(() => {}),
  huge: () => 'x'.repeat(contract.HUGE_CHARS),
};

export default {
  tools,
  invoke: (name, args) => run[name](args),
  preflight: (name, args) => (name === 'guarded' ? contract.offLimits(args.target) : undefined),
};

import { defineTool } from '../fields/define-tool.js';
import { type ArgsOf, field } from '../fields/field.js';
import { BUILTIN_GROUPS } from './builtin-groups.js';
import { checkedWork, ready, refuse } from './checked-work.js';

/** How the host puts a question to the person; resolves undefined when they dismiss it without answering. */
export type AskUser = (
  question: string,
  choices: readonly string[] | undefined,
  signal: AbortSignal,
) => Promise<string | undefined>;

const fields = {
  question: field.string({
    description: 'The question, complete enough to answer on its own.',
    minLength: 1,
    maxLength: 2000,
    trim: true,
  }),
  choices: field.list(field.string({ minLength: 1, maxLength: 200, trim: true }), {
    description: 'Answers to offer (the person may still answer in their own words).',
    minItems: 2,
    maxItems: 10,
    optional: true,
  }),
};

/** `ask_user`: asks the person a question and waits for the answer; refused when nobody is there to ask. */
export function askUserTool(askUser: AskUser | undefined) {
  return defineTool({
    name: 'ask_user',
    description:
      'Asks the person a question and waits for their answer. Use it only when you cannot go on without ' +
      'their decision; otherwise make a sensible choice and say what you chose.',
    risk: 'safe',
    readOnly: true,
    group: BUILTIN_GROUPS.conversation,
    fields,
    // a person takes the time they take; the turn's stop ends the wait
    timeLimitMs: null,
    ...checkedWork(
      (_args: ArgsOf<typeof fields>) =>
        askUser === undefined
          ? refuse(
              'unattended',
              'Nobody can be asked: this run is unattended, so the question was not put to anyone.',
              ['Carry on with your best judgement and say which assumptions you made.'],
            )
          : ready(askUser),
      async (ask, args, ctx) => {
        const answer = await ask(args.question, args.choices, ctx.signal);
        if (answer === undefined || answer.trim() === '') {
          return 'The person did not answer. Carry on with your best judgement and say which assumptions you made.';
        }
        return `The person answered: ${answer}`;
      },
    ),
  });
}

// An installed app for the tests of `toolseam mcp-serve`: one safe read-only tool with a field limit, and
// one that asks first and leaves a line in $SERVE_APP_NOTES each time it runs (so a test counts its runs).
import { appendFileSync } from 'node:fs';

export default function serveApp({ toolkit: { defineTool, field } }) {
  return {
    tools: [
      defineTool({
        name: 'greet',
        description: 'Greets a person by name.',
        risk: 'safe',
        readOnly: true,
        fields: { name: field.string({ maxLength: 20, description: 'Who to greet' }) },
        handler: ({ name }) => `Hello, ${name}!`,
      }),
      defineTool({
        name: 'post_note',
        description: 'Posts a note to the shared board.',
        risk: 'caution',
        fields: { text: field.string({ maxLength: 200, description: 'The note' }) },
        handler: ({ text }) => {
          if (process.env.SERVE_APP_NOTES) appendFileSync(process.env.SERVE_APP_NOTES, `${text}\n`);
          return `posted: ${text}`;
        },
      }),
    ],
  };
}

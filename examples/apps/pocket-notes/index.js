// An installed app written with toolseam's field specs. The entry exports a function: toolseam calls it
// with the app's context, whose toolkit holds defineTool and field, so the app needs no install of toolseam.
// The schema each tool is offered is generated from its fields, and every call is validated by them.

export default function pocketNotes({ toolkit }) {
  const { defineTool, field } = toolkit;
  /** @type {Map<string, {text: string, pinned: boolean}>} */
  const notes = new Map();

  const save = defineTool({
    name: 'notes_save',
    description: 'Save a short note under a title, replacing any note with that title.',
    risk: 'caution',
    fields: {
      title: field.string({ description: 'A short title', maxLength: 80, trim: true }),
      text: field.string({ description: 'The note itself', maxLength: 2000 }),
      pinned: field.boolean({ description: 'Keep it at the top of every search', safe: false }),
    },
    // What the handler refuses whatever anyone answers, declared so nobody is asked about it first.
    preflight: ({ title }) =>
      title === '' ? { message: 'notes_save needs a title that is not blank.', hints: ['Give the note a title.'] } : undefined,
    handler: ({ title, text, pinned }) => {
      notes.set(title, { text, pinned });
      return `Saved "${title}"${pinned ? ' (pinned)' : ''}.`;
    },
  });

  const find = defineTool({
    name: 'notes_find',
    description: 'Find saved notes whose title or text contains the query.',
    risk: 'safe',
    readOnly: true,
    fields: {
      query: field.string({ description: 'Text to look for (case-insensitive)' }),
      limit: field.integer({ description: 'At most this many notes', min: 1, max: 20, default: 5 }),
    },
    handler: ({ query, limit }) => {
      const q = query.toLowerCase();
      const hits = [...notes]
        .filter(([title, note]) => title.toLowerCase().includes(q) || note.text.toLowerCase().includes(q))
        .sort(([, a], [, b]) => Number(b.pinned) - Number(a.pinned))
        .slice(0, limit);
      return hits.length === 0 ? 'No note matches.' : hits.map(([title, note]) => `${title}: ${note.text}`).join('\n');
    },
  });

  return { tools: [save, find] };
}

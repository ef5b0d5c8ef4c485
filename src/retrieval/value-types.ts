/**
 * Kinds of value a request carries, read from their shape: "May 20th" or "2024-03-01" is a date,
 * "9:30 AM" a time, "$120" an amount. Tools name the parameters that take such values ("date",
 * "start_time", "amount"), so the kind's words can match those parameters when the request never
 * says the word itself.
 */
interface ValueType {
  readonly pattern: RegExp;
  readonly words: readonly string[];
}

const MONTH =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';

const VALUE_TYPES: readonly ValueType[] = [
  {
    pattern: new RegExp(
      `\\b\\d{4}-\\d{1,2}-\\d{1,2}\\b|\\b\\d{1,2}[/.]\\d{1,2}[/.]\\d{2,4}\\b|\\b${MONTH}\\.? \\d{1,2}(?:st|nd|rd|th)?\\b|\\b\\d{1,2}(?:st|nd|rd|th)? (?:of )?${MONTH}\\b`,
      'i',
    ),
    words: ['date'],
  },
  { pattern: /\b\d{1,2}:\d{2}(?::\d{2})?\b|\b\d{1,2} ?[ap]\.?m\b/i, words: ['time'] },
  { pattern: /\b[\w.+-]+@[\w-]+\.[\w.-]+\b/, words: ['email'] },
  { pattern: /\bhttps?:\/\/\S+|\bwww\.\S+/i, words: ['url'] },
  {
    pattern: /[$€£¥]\s?\d|\b\d[\d,.]* ?(?:dollars?|usd|eur|euros?|gbp|pounds sterling)\b/i,
    words: ['amount'],
  },
  { pattern: /\b\d+(?:\.\d+)? ?(?:%|percent\b)/i, words: ['percentage'] },
];

/** Words naming the kinds of value a request holds ("date", "time", …), each once. */
export function valueTypeWords(query: string): string[] {
  const out: string[] = [];
  for (const t of VALUE_TYPES) if (t.pattern.test(query)) for (const w of t.words) out.push(w);
  return out;
}

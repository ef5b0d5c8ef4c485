// An installed app written with raw JSON schemas: it exports its tools, an invoke function and a preflight.
// Raw schemas go through toolseam's seam like any other tool's, so the Tools page shows what (if anything)
// had to change before a model could be offered them.

const FACTORS = { mm: 0.001, cm: 0.01, m: 1, km: 1000, in: 0.0254, ft: 0.3048, mi: 1609.344 };

export const tools = [
  {
    name: 'convert_length',
    description: 'Convert a length from one unit to another.',
    risk: 'safe',
    readOnly: true,
    parameters: {
      type: 'object',
      properties: {
        value: { type: 'number', description: 'The length to convert' },
        from: { type: 'string', enum: Object.keys(FACTORS) },
        to: { type: 'string', enum: Object.keys(FACTORS) },
      },
      required: ['value', 'from', 'to'],
      // Not portable (some providers reject it); the seam drops it, and the handler checks its own input.
      additionalProperties: false,
    },
  },
  {
    name: 'convert_temperature',
    description: 'Convert a temperature between Celsius and Fahrenheit.',
    risk: 'safe',
    readOnly: true,
    inputSchema: {
      type: 'object',
      properties: {
        value: { type: 'number' },
        to: { type: 'string', enum: ['C', 'F'], description: 'The unit to convert to' },
      },
      required: ['value', 'to'],
    },
  },
];

/** Refuses, before anyone is asked, what invoke would refuse anyway. */
export function preflight(name, args) {
  if (name === 'convert_length') {
    for (const key of ['from', 'to']) {
      if (!(args[key] in FACTORS)) return `${key} must be one of ${Object.keys(FACTORS).join(', ')}.`;
    }
  }
  return undefined;
}

export function invoke(name, args) {
  const refusal = preflight(name, args);
  if (refusal) return { content: refusal, isError: true, notRun: 'refused_by_tool' };
  if (name === 'convert_length') {
    const metres = args.value * FACTORS[args.from];
    return `${args.value} ${args.from} = ${round(metres / FACTORS[args.to])} ${args.to}`;
  }
  if (name === 'convert_temperature') {
    return args.to === 'F'
      ? `${args.value} °C = ${round((args.value * 9) / 5 + 32)} °F`
      : `${args.value} °F = ${round(((args.value - 32) * 5) / 9)} °C`;
  }
  return { content: `unit-converter has no tool named ${name}.`, isError: true, notRun: 'refused_by_tool' };
}

function round(n) {
  return Math.round(n * 1000) / 1000;
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoundedOutput } from '../../../src/tools/builtin/bounded-output.js';
import { fillSecrets, placeholderNames } from '../../../src/tools/builtin/secret-placeholders.js';

// Secret values use only Q and Z; the filler and the markers ("[secret:K]") never do. So any Q or Z in the
// result is part of a secret that leaked.
const secrets = new Map([
  ['K', 'QZQZQZQZQZ'],
  ['L', 'ZZQQ'],
  ['M', 'QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ'],
]);
const piece = fc.oneof(fc.stringMatching(/^[ab \n]{0,30}$/), fc.constantFrom(...secrets.values()));

describe('BoundedOutput', () => {
  it('never shows any part of a secret, wherever the cuts fall and however the output arrives', () => {
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 60 }),
        fc.array(fc.integer({ min: 1, max: 25 }), { minLength: 1 }),
        (pieces, sizes) => {
          const text = pieces.join('');
          const output = new BoundedOutput(secrets, 40, 40);
          let at = 0;
          for (let i = 0; at < text.length; i++) {
            const size = sizes[i % sizes.length] as number;
            output.push(text.slice(at, at + size));
            at += size;
          }
          const done = output.finish();
          expect(done.text).not.toMatch(/[QZ]/);
          expect(done.total).toBe(text.length);
          if (!done.cut) expect(done.text.replace(/\[secret:[KLM,]+\]/g, '')).toBe(text.replace(/[QZ]/g, ''));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('keeps everything while the output is short, and says how much it left out when it is not', () => {
    const short = new BoundedOutput(new Map(), 10, 10);
    short.push('0123456789');
    short.push('abcdefghij');
    expect(short.finish()).toEqual({ text: '0123456789abcdefghij', total: 20, cut: false });
    const long = new BoundedOutput(new Map(), 10, 10);
    for (let i = 0; i < 100; i++) long.push('x');
    long.push('0123456789');
    expect(long.finish()).toEqual({
      text: `${'x'.repeat(10)}\n[… 90 characters of output left out …]\n0123456789`,
      total: 110,
      cut: true,
    });
  });
});

describe('secret placeholders', () => {
  it('names each secret once, in order of first use', () => {
    expect(placeholderNames('a {{secret:B}} {{ secret:A }} {{secret:B}}')).toEqual(['B', 'A']);
  });

  it('leaves a command without placeholders exactly as written', () => {
    const secretsByName = new Map([['A', 'alpha-value']]);
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (command) => {
        fc.pre(!command.includes('{{'));
        expect(fillSecrets(command, secretsByName)).toEqual({ command, env: {} });
      }),
      { numRuns: 500 },
    );
  });

  it('turns each filled placeholder into a variable reference and leaves unknown ones as written', () => {
    const filled = fillSecrets(
      `x {{secret:A}} '{{secret:A}}' "{{secret:B}}" {{secret:C}}`,
      new Map([
        ['A', 'alpha'],
        ['B', 'beta'],
      ]),
    );
    expect(filled.command).toBe(
      `x "\${TOOLSEAM_SECRET_1}" ''"\${TOOLSEAM_SECRET_1}"'' "\${TOOLSEAM_SECRET_2}" {{secret:C}}`,
    );
    expect(filled.env).toEqual({ TOOLSEAM_SECRET_1: 'alpha', TOOLSEAM_SECRET_2: 'beta' });
  });
});

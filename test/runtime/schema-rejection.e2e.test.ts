import { afterEach, describe, expect, it } from 'vitest';
import { openSessionStore } from '../../src/store/index.js';
import { demoProvider } from '../support/demo-tools.js';
import { collect, type RuntimeHarness, startHarness, turnEnd } from '../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Each family's stand-in, the provider name it reports, and words of its refusal of a tool. */
const FAMILIES = [
  { family: 'openai', provider: 'openai-compatible', said: "Invalid schema for function 'send_email'" },
  { family: 'openai', mode: 'gemini', provider: 'gemini', said: 'function_declarations[1].parameters' },
  { family: 'anthropic', provider: 'anthropic', said: 'tools.1.custom.input_schema: JSON schema is invalid' },
  { family: 'bedrock', provider: 'bedrock', said: 'toolConfig.tools.1.toolSpec.inputSchema is invalid' },
] as const;

describe('what a person is told when the provider refuses a tool definition', () => {
  for (const c of FAMILIES) {
    it(`${c.provider}: the sentence names the provider and quotes what it said, and the audit keeps it`, async () => {
      h = await startHarness({
        family: c.family,
        ...('mode' in c ? { mode: c.mode } : {}),
        providers: [demoProvider()],
        script: [{ text: 'never reached' }],
      });
      h.standIn.rejectTool('send_email');
      const end = turnEnd(await collect(h.runtime.session('s').send('mail someone')));
      expect(end.status).toBe('rejected');
      expect(end.message).toContain('"send_email"');
      expect(end.message).toContain(`${c.provider} answered HTTP 400`);
      expect(end.message).toContain(c.said);
      const reader = openSessionStore({ path: h.dbPath });
      const audit = reader.listAudit({ kind: 'tool_schema_rejected' });
      reader.close();
      expect(audit).toHaveLength(1);
      expect(String(audit[0]?.detail['said'])).toContain(c.said);
    });
  }
});

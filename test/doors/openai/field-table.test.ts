import { describe, expect, it } from 'vitest';
import doc from '../../../docs/openai.md?raw';
import sdk from '../../fixtures/openai/request-fields.json';
import { createKey, postJson } from '../../helpers/api';
import { chatExamples, type FieldExample, responsesExamples } from './field-examples';
import { type FieldRow, fieldTableOf } from './field-table';

// docs/openai.md's field tables against the request fields of OpenAI's own SDK
// (test/fixtures/openai/request-fields.json) and against the door: every field is in the table, and the
// door does with it what the row says. A null is absent wherever the SDK allows it; a refusal is a 400
// whose `param` names the field and whose message says what Valve does not do.

interface SdkField {
  name: string;
  nullable: boolean;
  values?: string[];
}

interface Door {
  heading: string;
  path: string;
  base: Record<string, unknown>;
  fields: SdkField[];
  examples: Record<string, FieldExample>;
}

interface ErrorJson {
  error: { message: string; param: string | null };
}

const doors: Door[] = [
  {
    heading: 'Chat Completions',
    path: 'chat/completions',
    base: { model: 'auto', messages: [{ role: 'user', content: 'Say hello.' }] },
    fields: sdk.chat,
    examples: chatExamples,
  },
  {
    heading: 'Responses API',
    path: 'responses',
    base: { model: 'auto', input: 'Say hello.' },
    fields: sdk.responses,
    examples: responsesExamples,
  },
];

async function send(door: Door, field: string, value: unknown): Promise<Response> {
  const { key } = await createKey();
  return postJson(
    `/openai/v1/${door.path}`,
    { ...door.base, [field]: value },
    { Authorization: `Bearer ${key}` },
  );
}

async function expectAnswered(res: Response, field: string, value: unknown): Promise<void> {
  expect(res.status, `${field}: ${JSON.stringify(value)} → ${await res.clone().text()}`).toBe(200);
  await res.body?.cancel();
}

/** A 400 naming the field (or a part of it), whose message gives Valve's reason, not "unknown field". */
async function expectRefused(res: Response, field: string, value: unknown): Promise<void> {
  const text = await res.text();
  const sent = `${field}: ${JSON.stringify(value)} → ${text}`;
  expect(res.status, sent).toBe(400);
  const { error } = JSON.parse(text) as ErrorJson;
  expect(error.param === field || error.param?.startsWith(`${field}.`), sent).toBe(true);
  expect(error.message, sent).not.toMatch(/unknown field/);
  expect(error.message, sent).toMatch(/Valve/);
}

for (const door of doors) {
  describe(`the ${door.heading} table of docs/openai.md`, () => {
    const table = fieldTableOf(doc, door.heading);
    const row = (field: string): FieldRow => {
      const found = table.rows.get(field);
      if (found === undefined)
        throw new Error(`docs/openai.md's ${door.heading} table has no row for ${field}`);
      return found;
    };
    const example = (field: string): FieldExample => {
      const found = door.examples[field];
      if (found === undefined)
        throw new Error(`test/doors/openai/field-examples.ts has no value of ${field}`);
      return found;
    };

    it(`lists every field ${sdk.sdk} documents, each once, and no other but Valve's own`, () => {
      const documented = door.fields.map((f) => f.name).sort();
      const listed = [...table.rows].filter(([, r]) => r.kind !== "Valve's own").map(([field]) => field);
      expect(listed.sort()).toEqual(documented);
      expect(table.repeated).toEqual([]);
    });

    it('has an example value of every field, and another for each taken at its neutral value only', () => {
      expect(Object.keys(door.examples).sort()).toEqual(door.fields.map((f) => f.name).sort());
      const neutralOnly = door.fields.filter((f) => table.rows.get(f.name)?.kind === 'neutral only');
      expect(neutralOnly.filter((f) => example(f.name).other === undefined).map((f) => f.name)).toEqual([]);
    });

    it.each(door.fields.filter((f) => f.nullable).map((f) => f.name))(
      'reads %s: null as absent',
      async (field) => {
        await expectAnswered(await send(door, field, null), field, null);
      },
    );

    it.each(door.fields.map((f) => f.name))('does with %s what its row says', async (name) => {
      const { kind } = row(name);
      const values = door.fields.find((f) => f.name === name)?.values;
      const { value, other } = example(name);
      if (kind === 'refused') {
        await expectRefused(await send(door, name, value), name, value);
        return;
      }
      await expectAnswered(await send(door, name, value), name, value);
      if (kind === 'neutral only') {
        await expectRefused(await send(door, name, other), name, other);
        return;
      }
      // Every value the SDK's type names is taken, as a field the door uses or accepts.
      for (const each of values ?? []) await expectAnswered(await send(door, name, each), name, each);
    });
  });
}

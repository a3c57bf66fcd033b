// The legacy tasks fixture behaves as a 2025-11-25 tasks server does, checked with the v1 SDK's own
// client over stdio: what the tasks translation will stand on (task creation, polling, the result,
// a tool error against a protocol error, cancellation, and a question that leaves the server only
// on the task's tasks/result stream).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ROOT } from '../support/processes.js';

const TASKS_FIXTURE = `${ROOT}dist/test/fixtures/tasks-server.js`;

describe('the legacy tasks fixture (2025-11-25 tasks, v1 SDK)', () => {
  let client: Client;
  const asked: string[] = [];

  before(async () => {
    client = new Client({ name: 'fixture-check', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params.message);
      const [field, spec] = Object.entries(
        (req.params as { requestedSchema: { properties: Record<string, { type: string }> } }).requestedSchema.properties,
      )[0]!;
      return { action: 'accept', content: { [field]: spec.type === 'boolean' ? true : 'Ada' } };
    });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [TASKS_FIXTURE], stderr: 'ignore' }));
  });
  after(async () => {
    await client?.close();
  });

  /** The messages of one task-augmented call, to its end. */
  async function run(name: string, args: Record<string, unknown> = {}) {
    const seen: Array<{ type: string; [k: string]: unknown }> = [];
    for await (const m of client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, { task: { ttl: 60_000 } }))
      seen.push(m as never);
    return seen;
  }

  it('declares tasks and each tool its task support', async () => {
    assert.ok(client.getServerCapabilities()?.tasks);
    const { tools } = await client.listTools();
    const support = Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport ?? 'forbidden']));
    assert.deepEqual(support, {
      greet: 'forbidden',
      slow_compute: 'optional',
      failing_job: 'required',
      protocol_error_job: 'optional',
      confirm_delete: 'optional',
      multi_input: 'optional',
      test_tool_with_task: 'required',
    });
  });

  it('runs slow_compute as a task and returns its result', async () => {
    const seen = await run('slow_compute', { seconds: 0.2 });
    assert.equal(seen[0]!.type, 'taskCreated');
    const last = seen.at(-1)!;
    assert.equal(last.type, 'result');
    assert.deepEqual((last['result'] as { content: unknown }).content, [{ type: 'text', text: 'computed after 0.2 s' }]);
  });

  it('completes failing_job with isError, and fails protocol_error_job', async () => {
    const failing = (await run('failing_job')).at(-1)!;
    assert.equal((failing['result'] as { isError?: boolean }).isError, true);
    const crashed = await run('protocol_error_job');
    const taskId = (crashed[0]!['task'] as { taskId: string }).taskId;
    assert.equal((await client.experimental.tasks.getTask(taskId)).status, 'failed');
  });

  it('sends a question inside a task on the task stream and completes with the answer', async () => {
    const seen = await run('confirm_delete', { filename: '/tmp/x' });
    assert.ok(asked.includes('Delete /tmp/x?'), JSON.stringify(asked));
    assert.match((seen.at(-1)!['result'] as { content: Array<{ text: string }> }).content[0]!.text, /deleted: \{"confirm":true\}/);
  });

  it("asks test_tool_with_task's question before the task exists, then runs the task with the answer", async () => {
    const seen = await run('test_tool_with_task');
    assert.ok(asked.includes('Your name?'), JSON.stringify(asked));
    assert.equal(seen[0]!.type, 'taskCreated');
    assert.match((seen.at(-1)!['result'] as { content: Array<{ text: string }> }).content[0]!.text, /Hello, Ada!/);
  });

  it('ends cancelled when cancelled while running', async () => {
    const stream = client.experimental.tasks.callToolStream({ name: 'slow_compute', arguments: { seconds: 30 } }, CallToolResultSchema, {
      task: { ttl: 60_000 },
    });
    const first = (await stream.next()).value as { type: string; task: { taskId: string } };
    assert.equal(first.type, 'taskCreated');
    await client.experimental.tasks.cancelTask(first.task.taskId);
    assert.equal((await client.experimental.tasks.getTask(first.task.taskId)).status, 'cancelled');
    await stream.return(undefined);
  });
});

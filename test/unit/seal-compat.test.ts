// Tokens sealed by the proxy before sealing moved from jose to node:crypto and claims became a union
// (commit 234cca8, jose 6.2.18): every kind still opens, as the claims its builder makes today. The
// keys are fixed test keys, and the states expire an hour after T0.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { holdClaims, replayClaims, taskClaims } from '../../src/state/claims.js';
import { decodeRecord } from '../../src/state/replay-record.js';
import { createSealer, StateError } from '../../src/state/seal.js';

const KEY = new Uint8Array(32).map((_, i) => i);
const ROTATED_OUT = new Uint8Array(32).map((_, i) => 255 - i);
const T0 = 1_800_000_000_000;
const EXP = T0 + 3_600_000;
const ROOTS = [{ uri: 'file:///work/a', name: 'A' }, { uri: 'file:///work/b' }];
/** The replay record in both replay states: one question answered, one open. */
const RECORD =
  'hY47DsIwEETvMrUlktYN4gI0lIhiWa8SI_yJvRQo8t2RgwQVop43M--8IsIOBgEWcvfsldSnuOMipAIDBws3wIBgVxD3FBbELFlhwCmqRO1hpCCwODhCa81s0-O_6REGS28H0Tm5X2ymQqG-uVpp6kdHCrKHQZHlIVXFnXiWsHnqM3ciXW_C3TKXlKWol_oV_VBVi49Td26tXV4';

/** Sealed by createSealer([KEY, ROTATED_OUT], () => T0), holdRotatedOut by createSealer([ROTATED_OUT]). */
const SEALED = {
  hold: 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIiwia2lkIjoiUlMwWnYwTmttWjIifQ..QXMrdwnLKfZFD0ad.JLPV0_bQwQxmnhegU7aBat88LN-h4k4NSHV0V1vT3Rkun3nE9c1580ESmO8y7LOV2ijmWdUC73QdCcB_a5ZUrVnqLO0QG9VUO6Po_t5107m2rrXHhmap_HCSZKkw-l4.AIjJcDNRHLWlbZDFJ4YPfA',
  holdWithRootsAndOwner:
    'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIiwia2lkIjoiUlMwWnYwTmttWjIifQ..TD68573ZfQhkjQ7P.i2f6L_9Y_NRoAWkvizg-jkPmpoNjpvNEEu5AAwXYBFgIDuPtspCfYM1-v1GqQLs_rk8dxGVRJgV9Le5hORj83s4sRF_zFG7HQK-S1pAY2PsHYKtgCMb9HLjYyqc5pJQglQ-sQljz5g77u1fIJcH9sBawevpF2Is1dYBNMxmsiWCTF3zTAsJLSSoekikZpk1S2fUsDrCa8XWITc1I_D3B_ZjIIsI4JB2lXZoJtOog2Poo8dgBLzhN1r9lhRxc6A.BOwk3ob-YSrh9GfgQyfn8Q',
  replay:
    'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIiwia2lkIjoiUlMwWnYwTmttWjIifQ..oHWnrTr7DZTnWOyD.xTILyp8-JAQXmYU5Nu_O0UUE3rIKCFNjbjBM1dKpk8oKs48eIxVQncps-ocAo0FgvMNm_zPu9LPUnpJ-YrufzjUOSLVrNF3Vj3ZXYIvBLfREgVBGC2SeN_IC1yZbaYMnhODqezjFyORsHZ_8IRoyGfpDuxl0NWGSlFGkDDKs422eiksyGdm7BDyUpX8_RUwiyCdeC5N6-IhfMr-AKmD7VbpELjh3JxkEPhMG2xfJ1eyxx_xKp2Fg2RQmIUcPDTU-ur024sFqWIuyKBMIhCdziaEggwwHjHYpeNs4fUJYa95QqPmal5N-Xv-XkV8ohhy05gu7Mq_KhofGQe9hrVkKHVfIfiviUuDHJ2LIaPj8Sipp8db6cF0_SEcFKnr-uNDqH-Ydrhfg6Ct8OkizpApvXfKL1ZsWJtBcBm54JXyq1zIZTLpckWj35peAgky1V5lWReOuIFxEILZASS3wAiGy-SgL8ZTqK41F0egXyqSBwXFSi-MQcD6kp-T2_Q9CFAuB4aglIqcvcLbq_s0xR0gpdYZ44OxYqdOoNmt8qrRwsyWDfuN6E9Lp_8YkTOcOdi9WBU6EOqErCAdz9zdOVldtyUD3Ie0.eRL-3Xy00JSOLR1AxDvSVg',
  replayWithoutCallId:
    'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIiwia2lkIjoiUlMwWnYwTmttWjIifQ..U3RdYb6FY-mZs1hg.bWxk0scu5x7qO0ChlLYOjZAqTiC4pmo1qzBNcyyd3M2jeYU3n16d1an__wQKoSXn0TgzFQ6S6bM0VG532D6Islt75A6ydkSB-powf00AwuSO3uOrAvOd1-uv2q-_15hfZxPBONrR9PH5DvTfMXY_057kU23P4bAk7VyIUrALLZdjAST0ooG9XD8WGXnxiJVjahQUglwOxeWCh9mMVL_Nd2tfD1ItmlLk-Qg5QNTjIyzoOC1ta0t5Y8uN3eYI6cELurMIBR7N9vKG4QCYatxZzMy46a82oq-Rx8uVWDQhYvVUvJSdvVToHOsLrQGbcjvPywPr-qRgMj23VaqpfufHqgGVUpX7UnhHcbaeD85_cOCqIhvSo8VF4eOTuUDO6wXw8eNuj9jDsrcfqupvgVB8Ym7DQru8AvaOKnYsfX2CC75dyHPThyLtx2nR-ZdsvaLkZ4OTK5pPeoQEr8PqGb1tv4hMb_0RkH9gT7pqF1FWKaPUjAo.sU0-3APiXeZB-jfrqh2Giw',
  task: 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIiwia2lkIjoiUlMwWnYwTmttWjIifQ..Ui_02fr8SRongDDP._OFxjzQePUGyBuQ6h3FfjsxjEPNgL1ItuRcB2W5Brje4kDzcZS01nt4-oOVVH7pN0-SumXyDkL3ST1IaBO9-04PZ7d9gMfWs5aBD5nrvtFR5H_OtGY_Yf64XoUmlxtIB9YYk4sAyP2sjbvM5idfzW9fBinV15NeWajI8-7rlZqPNgFbiFdc9kkIuMg.S6E5xZ8Vc9I2iMku8wsdEA',
  taskRecord:
    'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIiwia2lkIjoiUlMwWnYwTmttWjIiLCJjdHkiOiJtcnRyLXJlY29yZCJ9..wW9-l314FBaiSX1D.nA8lZ3fDcmJf7AyqKwEzyit0zqscQNUgkMgCOCP9_wyOfhS8gWYutbVQ52YS1aMzV3nyXLawVqnw7NvtJadO9Fr85UmFWdXkt2KPjVTbQyIYXWT-QutstsirXRi0-FtLmpKfS1XdVZ5GVeTuNEX2FrpVgB5MNFcT6-cdZ6dx8AUIVLUDjo9-BiYyzB4.GnGZyiyFeuf1pXCVxGKiXA',
  holdRotatedOut:
    'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIiwia2lkIjoiWXVFcWFVQmY0SHUifQ..uMnRMkknGY2nvSSP.8qzwGrIccoOFW95pylEMSWrdjsVjOzwVvGf8LwGvuSNQKQc74BAfHllC4rpy-HP1MwI9JXSUbHWd8h_vKJ6Jbzq5-Pzcyfl48iE55vsoj0AfSFea7AXNJw2OnJYJ0xE.p3nSHieAcV-5qHYm18_q4g',
};

const hold = (round: number) => ({ handle: 'handle-hold', instance: 'instance-A/up', round, principal: 'alice', fingerprint: 'fp-hold' });
const replay = {
  handle: 'handle-replay',
  instance: 'instance-A/up',
  round: 1,
  principal: 'alice',
  fingerprint: 'fp-replay',
  upstream: 'up',
  record: RECORD,
  expiresAt: EXP,
};

describe('tokens sealed by the previous version', () => {
  const sealer = createSealer([KEY, ROTATED_OUT], () => T0);

  it('open as a held call, with its roots and owner', async () => {
    assert.deepEqual(await sealer.inspect(SEALED.hold), holdClaims(hold(2)));
    assert.deepEqual(await sealer.inspect(SEALED.holdWithRootsAndOwner), holdClaims({ ...hold(3), roots: ROOTS, ownerUrl: 'http://10.0.0.1:8080' }));
    assert.deepEqual(await sealer.open(SEALED.hold, { instance: 'instance-A/up', principal: 'alice', fingerprint: 'fp-hold' }), holdClaims(hold(2)));
  });

  it('open as a replayed call, with or without its call id, and its record decodes', async () => {
    assert.deepEqual(await sealer.inspect(SEALED.replay), replayClaims({ ...replay, roots: ROOTS, legacyVersion: '2025-06-18', callId: 'call-1' }));
    const { c: _c, ...withoutCallId } = replayClaims({ ...replay, legacyVersion: '2025-11-25', callId: '' });
    assert.deepEqual(await sealer.inspect(SEALED.replayWithoutCallId), withoutCallId);
    const opened = await sealer.open(SEALED.replay, { instance: 'elsewhere', upstream: 'up', principal: 'alice', fingerprint: 'fp-replay' });
    assert.equal(opened.k, 'replay');
    assert.equal(decodeRecord(RECORD).length, 2);
  });

  it('open as a task id, and a task record opens', async () => {
    assert.deepEqual(
      await sealer.inspect(SEALED.task),
      taskClaims({ handle: 'handle-task', instance: 'instance-A/up', principal: 'alice', upstream: 'up', ownerUrl: 'http://10.0.0.1:8080' }),
    );
    assert.deepEqual(await sealer.openRecord(SEALED.taskRecord), {
      h: 'handle-task',
      o: 'instance-A/up',
      e: EXP,
      view: { status: 'completed', result: { content: [{ type: 'text', text: 'done' }] } },
    });
  });

  it('keep their key ids: a rotated-out key opens its own only while listed', async () => {
    assert.deepEqual(await sealer.inspect(SEALED.holdRotatedOut), holdClaims(hold(2)));
    await assert.rejects(
      createSealer([KEY], () => T0).inspect(SEALED.holdRotatedOut),
      (err: unknown) => err instanceof StateError && err.reason === 'unauthentic',
    );
    await assert.rejects(
      createSealer([ROTATED_OUT], () => T0).inspect(SEALED.hold),
      (err: unknown) => err instanceof StateError && err.reason === 'unauthentic',
    );
  });

  it('keep their expiry', async () => {
    assert.equal((await createSealer(KEY, () => EXP - 1).inspect(SEALED.task)).k, 'task');
    await assert.rejects(createSealer(KEY, () => EXP).inspect(SEALED.task), (err: unknown) => err instanceof StateError && err.reason === 'expired');
  });
});

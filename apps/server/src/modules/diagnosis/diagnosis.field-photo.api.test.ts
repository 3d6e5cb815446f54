// The shipped model on a field-like photo of a tomato leaf (testing/fixtures/field-like/tizon-campo.jpg)
// and on a lab photo (e2e/assets/late_blight_leaf.jpg): both are diagnosed; the field-like one carries
// `field_photo: true` and the field-photo caution in the rows, the history, the PDF report and the CLI.
// This needs a model whose graph has a `lab_like` output, as the shipped one has; the test fails
// otherwise. Models come from MODELS_DIR when set, else models/.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DIAGNOSIS_PATHS as P,
  type DiagnosisRow,
  FIELD_PHOTO_CAUTION,
  LAB_LIKE_CUT,
  type LoadedModelDetails,
  fieldTop1Of,
  parseModelCard,
  reliabilityOf,
} from '@diagrodl/contracts';
import { type TestServer, json } from '../../testing/harness.ts';
import {
  configForm,
  loggedIn,
  predictForm,
  reportText,
  runDiagnoseCli,
  startShippedModelServer,
  uploadForm,
} from '../../testing/diagnosis.ts';
import { FIELD_LIKE_JPEG, fieldLikeJpeg } from '../../testing/photos.ts';
import { repoRoot } from '../../config.ts';

const LAB_JPEG = path.join(repoRoot, 'e2e', 'assets', 'late_blight_leaf.jpg');

describe('a diagnosis of a field-like photo carries the field-photo caution (shipped model)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startShippedModelServer();
  });
  afterAll(async () => {
    await server?.app.close();
  });

  it(
    'rows, history, PDF report and CLI say which diagnosis is of a field-like photo',
    { timeout: 120_000 },
    async () => {
      // the configuration page's models carry the card's accuracy on the field photos
      const card = JSON.parse(
        fs.readFileSync(path.join(server.config.modelsDir, 'mobilenet.card.json'), 'utf8'),
      );
      const models: LoadedModelDetails[] = await json(await fetch(`${server.baseUrl}${P.models}`));
      const mobilenet = models.find((m) => m.id === 'mobilenet');
      expect(mobilenet?.fieldAccuracy).toBe(fieldTop1Of(parseModelCard(card)));
      if (
        !card.out_of_distribution.evaluation.field_holdout &&
        !card.out_of_distribution.evaluation.field_val_all
      )
        expect(mobilenet?.fieldAccuracy).toBe(card.out_of_distribution.evaluation.field_val.top1);
      // and how often it is right set by set, the field photos' figures among them, from the card
      expect(mobilenet?.reliability).toEqual(reliabilityOf(parseModelCard(card)));
      expect(mobilenet?.reliability.find((r) => r.set === 'field_val')).toMatchObject({
        n: card.out_of_distribution.evaluation.field_val.n,
        acceptedShare: card.out_of_distribution.evaluation.field_val.accepted_share,
        accuracyAccepted: card.out_of_distribution.evaluation.field_val.accuracy_accepted,
      });
      const { browser } = await loggedIn(server.app, server.baseUrl, 'Campo0001');
      expect(
        (await browser.post(P.config, { body: configForm('tomato_leaf_cnn_mobilenet') })).status,
      ).toBe(200);
      for (const [bytes, name] of [
        [await fieldLikeJpeg(), 'tizon-campo.jpg'],
        [fs.readFileSync(LAB_JPEG), 'tizon-lab.jpg'],
      ] as const) {
        expect((await browser.post(P.posts, { body: uploadForm(bytes, name) })).status).toBe(200);
      }
      expect((await browser.post(`${P.predict}?wait=1`, { body: predictForm() })).status).toBe(200);

      const rows: DiagnosisRow[] = await json(await browser.get(P.posts));
      const byName = new Map(rows.map((r) => [r.name_img, r]));
      const field = byName.get('tizon-campo.jpg');
      const lab = byName.get('tizon-lab.jpg');
      expect(field, 'the shipped model has a `lab_like` output').toMatchObject({
        label: 'late_blight',
        accepted: true,
        reason: null,
        field_photo: true,
      });
      expect(field!.lab_like).toBeLessThan(LAB_LIKE_CUT);
      expect(lab).toMatchObject({ label: 'late_blight', accepted: true, field_photo: false });
      expect(lab!.lab_like).toBeGreaterThanOrEqual(LAB_LIKE_CUT);

      const past: DiagnosisRow[] = await json(await browser.get(P.history));
      expect(past.map((r) => [r.name_img, r.field_photo]).sort()).toEqual([
        ['tizon-campo.jpg', true],
        ['tizon-lab.jpg', false],
      ]);

      // the PDF report: the caution once, for the field-like photo
      const text = await reportText(browser);
      expect(text.split(FIELD_PHOTO_CAUTION.es)).toHaveLength(2);

      // the diagnose CLI: field_photo in JSON, the caution as the last column of the text output
      const run = (...args: string[]) => runDiagnoseCli(server.config.modelsDir, ...args);
      const cli = run('--model', 'mobilenet', '--json', FIELD_LIKE_JPEG, LAB_JPEG);
      expect(cli.status, cli.stderr).toBe(0);
      const [f, l] = JSON.parse(cli.stdout);
      expect(f).toMatchObject({ accepted: true, field_photo: true });
      expect(f.lab_like).toBeCloseTo(field!.lab_like!, 5);
      expect(l).toMatchObject({ accepted: true, field_photo: false });
      const lines = run('--model', 'mobilenet', FIELD_LIKE_JPEG, LAB_JPEG)
        .stdout.trim()
        .split('\n');
      expect(lines[0]!.split('\t').at(-1)).toBe(FIELD_PHOTO_CAUTION.es);
      expect(lines[1]).not.toContain(FIELD_PHOTO_CAUTION.es);

      // --eval: the share given with the caution, and the figures of each photo kind apart
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'diagrodl-field-eval-'));
      try {
        fs.mkdirSync(path.join(dir, 'Tomato___Late_blight'));
        fs.copyFileSync(FIELD_LIKE_JPEG, path.join(dir, 'Tomato___Late_blight', 'campo.jpg'));
        fs.copyFileSync(LAB_JPEG, path.join(dir, 'Tomato___Late_blight', 'lab.jpg'));
        const ev = run('--model', 'mobilenet', '--eval', dir);
        expect(ev.status, ev.stderr).toBe(0);
        const kind = { n: 1, accuracy: 1, accepted_share: 1, accuracy_accepted: 1 };
        expect(JSON.parse(ev.stdout)).toMatchObject({
          n: 2,
          field_photo_share: 0.5,
          by_photo_kind: { lab_like: kind, field_like: kind },
        });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

/**
 * npx tsx scripts/moderation/cross-validate-scorer.ts [--folds 5] [--repeats 1] [--nested] [--grid]
 *
 * k-fold cross-validation of the comment scorer's trained model and of its blend with the rules,
 * over the training material (server/engagement/moderation/lexicon/model/train.ts TRAINING_FILES: the
 * tuning set, the retired report set, the development examples; never the current report set).
 * Folds mix the files and are stratified by label (a seeded shuffle); examples written for the
 * model (model/extra-examples.jsonl) are always on the training side and never measured.
 *
 * For each fold the two models are trained on the other folds, and the probabilities at which the
 * blend holds (toxic) or calls spam are chosen on those other folds alone (`--nested`: by an inner
 * cross-validation; otherwise on the out-of-fold predictions of all folds, which flatters a little).
 * Prints, for the rules alone and for the blend, per file and in all: toxic precision / recall /
 * F1 (borderline left out), ROC AUC of the toxicity (toxic vs ordinary), spam precision / recall /
 * F1, ROC AUC of the spam score, and the share of ordinary and borderline comments held.
 * `--grid` compares model settings instead: GRID="lambda:iterations:nbSmoothing[:r],…" (r: the
 * rules' signals as features too). `--leave-out corpus/retired-report-1.jsonl` trains on the rest
 * and scores that file once.
 */
import { blendSpam, blendToxicity, chooseHoldAt } from "../../server/engagement/moderation/lexicon/model/blend";
import { type FeatureOptions } from "../../server/engagement/moderation/lexicon/model/features";
import {
  featurise,
  foldsOf,
  linearScore,
  loadTrainingExamples,
  outOfFold,
  rulesOf,
  SPAM_TRAIN_OPTIONS,
  targetsOf,
  TOXIC_TRAIN_OPTIONS,
  trainLogistic,
  type Example,
  type Setting,
  type TargetVectors,
} from "../../server/engagement/moderation/lexicon/model/train";
import { confusion, rocAuc } from "./metrics";

const args = process.argv.slice(2);
const opt = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const FOLDS = opt("folds", 5);
const REPEATS = opt("repeats", 1);
const NESTED = args.includes("--nested");
const GRID = args.includes("--grid");
const EXTRA = "model/extra-examples.jsonl";

type Row = {
  example: Example;
  rulesToxicity: number;
  rulesSpam: number;
  rulesIsSpam: boolean;
  p: { toxic: number; spam: number };
};

type Scored = { example: Example; toxicity: number; spam: number; isSpam: boolean };

function figures(items: Scored[]) {
  const notBorderline = items.filter((s) => s.example.label !== "borderline");
  const ordinary = items.filter((s) => s.example.label === "ordinary");
  const borderline = items.filter((s) => s.example.label === "borderline");
  const toxic = confusion(
    notBorderline,
    (s) => s.example.label === "toxic",
    (s) => s.toxicity >= 70,
  );
  const spam = confusion(
    notBorderline,
    (s) => s.example.label === "spam",
    (s) => s.isSpam,
  );
  const held = (s: Scored) => s.toxicity >= 70 || s.isSpam;
  return {
    n: items.length,
    toxic,
    toxicAuc: rocAuc(
      items.filter((s) => s.example.label === "toxic").map((s) => s.toxicity),
      ordinary.map((s) => s.toxicity),
    ),
    spam,
    spamAuc: rocAuc(
      items.filter((s) => s.example.label === "spam").map((s) => s.spam),
      ordinary.map((s) => s.spam),
    ),
    ordinaryHeld: ordinary.filter(held).length,
    ordinary: ordinary.length,
    borderlineHeld: borderline.filter(held).length,
    borderline: borderline.length,
  };
}

const f3 = (n: number) => n.toFixed(3);
function line(name: string, f: ReturnType<typeof figures>): string {
  return [
    `${name.padEnd(34)} n ${String(f.n).padStart(4)}`,
    `toxic P/R/F1 ${f3(f.toxic.precision)}/${f3(f.toxic.recall)}/${f3(f.toxic.f1)} (fp ${f.toxic.fp}, fn ${f.toxic.fn})`,
    `AUC ${f3(f.toxicAuc)}`,
    `spam P/R/F1 ${f3(f.spam.precision)}/${f3(f.spam.recall)}/${f3(f.spam.f1)} (fp ${f.spam.fp}, fn ${f.spam.fn})`,
    `AUC ${f3(f.spamAuc)}`,
    `ordinary held ${((100 * f.ordinaryHeld) / f.ordinary).toFixed(1)}% (${f.ordinaryHeld}/${f.ordinary})`,
    `borderline held ${f.borderlineHeld}/${f.borderline}`,
  ].join("  ");
}

const examples = loadTrainingExamples();
const measured = examples.map((_, i) => i).filter((i) => examples[i]!.source !== EXTRA);
const alwaysTrain = examples.map((_, i) => i).filter((i) => examples[i]!.source === EXTRA);
const rules = examples.map((e) => rulesOf(e.text));
const featureCache = new Map<string, ReturnType<typeof featurise>>();
const vectors = (features: FeatureOptions) => {
  const key = JSON.stringify(features);
  if (!featureCache.has(key)) featureCache.set(key, featurise(examples, features));
  return featureCache.get(key)!;
};
const xsFor = (setting: Setting): TargetVectors => ({
  toxic: vectors(setting.toxic.features),
  spam: vectors(setting.spam.features),
});

/** Rows of the measured examples with out-of-fold probabilities, and each one's fold (for the thresholds). */
function evaluate(setting: Setting, seed: number) {
  const xs = xsFor(setting);
  const oof = outOfFold(xs, examples, measured, alwaysTrain, FOLDS, seed, setting);
  const fold = foldsOf(examples, measured, FOLDS, seed);
  const rows: Row[] = measured.map((i) => ({
    example: examples[i]!,
    rulesToxicity: rules[i]!.toxicity.toxicity,
    rulesSpam: rules[i]!.spam.spam,
    rulesIsSpam: rules[i]!.spam.isSpam,
    p: oof.get(i)!,
  }));
  const foldOf = measured.map((i) => fold.get(i)!);
  // Thresholds: for each outer fold, chosen without it.
  const holdAt = new Map<number, { toxic: number; spam: number }>();
  for (let f = 0; f < FOLDS; f += 1) {
    let chooseFrom: Row[];
    if (NESTED) {
      const inner = measured.filter((_, r) => foldOf[r] !== f);
      const innerOof = outOfFold(xs, examples, inner, alwaysTrain, FOLDS, seed + 1000 + f, setting);
      chooseFrom = inner.map((i) => ({
        example: examples[i]!,
        rulesToxicity: rules[i]!.toxicity.toxicity,
        rulesSpam: rules[i]!.spam.spam,
        rulesIsSpam: rules[i]!.spam.isSpam,
        p: innerOof.get(i)!,
      }));
    } else {
      chooseFrom = rows.filter((_, r) => foldOf[r] !== f);
    }
    holdAt.set(f, chooseHoldAt(chooseFrom, process.env.ON === "blend" ? "blend" : "model"));
  }
  const scored: Scored[] = rows.map((row, r) => {
    const at = holdAt.get(foldOf[r]!)!;
    const t = blendToxicity(row.rulesToxicity, row.p.toxic, at.toxic);
    const s = blendSpam(row.rulesSpam, row.rulesIsSpam, row.p.spam, at.spam);
    return { example: row.example, toxicity: t.toxicity, spam: s.spam, isSpam: s.isSpam };
  });
  if (process.env.SHOW) {
    for (const s of scored) {
      if (s.example.source.includes("retired")) continue;
      const wrong =
        s.example.label === "toxic"
          ? s.toxicity < 70
          : s.example.label === "ordinary"
            ? s.toxicity >= 70 || s.isSpam
            : s.example.label === "spam"
              ? !s.isSpam
              : false;
      if (wrong)
        console.log(`  ${s.example.id} ${s.example.label} ${s.toxicity} ${s.spam}: ${s.example.text.slice(0, 120)}`);
    }
  }
  const rulesOnly: Scored[] = rows.map((row) => ({
    example: row.example,
    toxicity: row.rulesToxicity,
    spam: row.rulesSpam,
    isSpam: row.rulesIsSpam,
  }));
  const modelOnly: Scored[] = rows.map((row) => ({
    example: row.example,
    toxicity: 100 * row.p.toxic,
    spam: 100 * row.p.spam,
    isSpam: row.p.spam >= 0.5,
  }));
  return { scored, rulesOnly, modelOnly, holdAt };
}

function report(name: string, setting: Setting) {
  const all: { scored: Scored[]; rulesOnly: Scored[]; modelOnly: Scored[] }[] = [];
  for (let r = 0; r < REPEATS; r += 1) {
    const result = evaluate(setting, 20260 + r);
    all.push(result);
    console.log(
      `${name} seed ${20260 + r}: hold at (toxic, spam) ${[...result.holdAt.values()].map((h) => `${h.toxic.toFixed(3)}/${h.spam.toFixed(3)}`).join(" ")}`,
    );
  }
  const sources = [...new Set(examples.filter((e) => e.source !== EXTRA).map((e) => e.source))];
  for (const [label, pick] of [
    ["rules alone", (x: (typeof all)[number]) => x.rulesOnly],
    ["model alone (p ≥ 0.5)", (x: (typeof all)[number]) => x.modelOnly],
    ["rules + model", (x: (typeof all)[number]) => x.scored],
  ] as const) {
    const items = all.flatMap(pick);
    console.log(line(`${label}, all`, figures(items)));
    for (const source of sources) {
      console.log(
        line(`${label}, ${source.replace(/^.*\//, "")}`, figures(items.filter((s) => s.example.source === source))),
      );
    }
  }
}

/**
 * `--leave-out <file>`: the file's examples are not trained on at all; the probabilities to hold
 * at are chosen by cross-validation on the rest, the models trained on the rest, and the file
 * scored once: how the scorer does on comments written by other hands than those it learnt from.
 */
function leaveOut(setting: Setting, file: string) {
  const xs = xsFor(setting);
  const held = examples.map((_, i) => i).filter((i) => examples[i]!.source === file);
  const rest = measured.filter((i) => examples[i]!.source !== file);
  const oof = outOfFold(xs, examples, rest, alwaysTrain, FOLDS, 20260, setting);
  const rowOf = (i: number, p: { toxic: number; spam: number }) => ({
    example: examples[i]!,
    rulesToxicity: rules[i]!.toxicity.toxicity,
    rulesSpam: rules[i]!.spam.spam,
    rulesIsSpam: rules[i]!.spam.isSpam,
    p,
  });
  const at = chooseHoldAt(rest.map((i) => rowOf(i, oof.get(i)!)));
  const train = [...alwaysTrain, ...rest];
  const models = Object.fromEntries(
    (["toxic", "spam"] as const).map((target) => {
      const { ys, ws } = targetsOf(
        train.map((i) => examples[i]!),
        target,
        setting[target],
      );
      return [
        target,
        trainLogistic(
          train.map((i) => xs[target][i]!),
          ys,
          ws,
          setting[target],
        ),
      ];
    }),
  ) as Record<"toxic" | "spam", ReturnType<typeof trainLogistic>>;
  const p = (i: number) => ({
    toxic: 1 / (1 + Math.exp(-linearScore(models.toxic, xs.toxic[i]!))),
    spam: 1 / (1 + Math.exp(-linearScore(models.spam, xs.spam[i]!))),
  });
  const rows = held.map((i) => rowOf(i, p(i)));
  console.log(`${file} left out: hold at (toxic, spam) ${at.toxic.toFixed(3)}/${at.spam.toFixed(3)}`);
  console.log(
    line(
      "rules alone",
      figures(
        rows.map((r) => ({ example: r.example, toxicity: r.rulesToxicity, spam: r.rulesSpam, isSpam: r.rulesIsSpam })),
      ),
    ),
  );
  console.log(
    line(
      "rules + model",
      figures(
        rows.map((r) => {
          const t = blendToxicity(r.rulesToxicity, r.p.toxic, at.toxic);
          const s = blendSpam(r.rulesSpam, r.rulesIsSpam, r.p.spam, at.spam);
          return { example: r.example, toxicity: t.toxicity, spam: s.spam, isSpam: s.isSpam };
        }),
      ),
    ),
  );
}

const BASE: Setting = { toxic: TOXIC_TRAIN_OPTIONS, spam: SPAM_TRAIN_OPTIONS };
const leaveOutArg = args.indexOf("--leave-out");
if (leaveOutArg >= 0) {
  leaveOut(BASE, args[leaveOutArg + 1]!);
} else if (GRID) {
  const grid: [string, Setting][] = [];
  const spec = process.env.GRID ?? "1e-4:300:0.25";
  for (const item of spec.split(",")) {
    const [lambda, iterations, nb, rulesToo] = item.split(":");
    const features = { text: true, rules: Boolean(rulesToo) };
    const o = { lambda: Number(lambda), iterations: Number(iterations ?? 300) || 300, nbSmoothing: Number(nb ?? 0) };
    grid.push([
      `${rulesToo ? "text + rules" : "text"} ${JSON.stringify(o)}`,
      { toxic: { ...BASE.toxic, ...o, features }, spam: { ...BASE.spam, ...o, features } },
    ]);
  }
  for (const [name, setting] of grid) report(name, setting);
} else {
  report("shipped settings", BASE);
}

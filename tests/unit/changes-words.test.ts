import { expect, test } from "bun:test";
import { changesIntro, changesNotReady, windowsText, withinNoiseText } from "#web/lib/changes.ts";

/* "What changed" says what it compares, and how many moves it leaves out as run-to-run noise (web/lib/changes.ts). */

test("the intro: the latest window against up to 7 runs before it, only moves beyond the noise listed", () => {
  expect(changesIntro(1)).toBe(
    "The latest run against up to 7 runs before it: what entered or left the top 10 by how many answers named it. Only moves beyond how much the runs vary from run to run are listed.",
  );
  expect(changesIntro(3)).toStartWith("The latest 3 runs against up to 7 runs before them: ");
  expect(changesNotReady(2)).toBe(
    "Not enough runs yet: this compares the latest 2 runs with up to 7 runs before them, once 4 runs have answered since what the tracker asks or counts last changed.",
  );
});

test("a provider's windows: its answers in each", () => {
  expect(windowsText({ windows: { before: { runIds: ["a", "b", "c"], n: 90 }, after: { runIds: ["d"], n: 30 } } })).toBe(
    "30 answers in the latest run, against 90 in the 3 runs before it.",
  );
});

test("moves within the noise: counted, not listed; 'other' only when some are listed; none, nothing said", () => {
  expect(withinNoiseText(3, true)).toBe("3 other moves in or out of the top 10 were within the run-to-run noise and are not listed.");
  expect(withinNoiseText(1, false)).toBe("1 move in or out of the top 10 was within the run-to-run noise and is not listed.");
  expect(withinNoiseText(0, true)).toBeNull();
});

import { describe, expect, test } from "bun:test";
import { providerConfig } from "#src/contract/provider-config.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp, liveProviderEnv, useSimulatedDatabase } from "#tests/support/app.ts";

/*
 * A model's shutdown, said ahead of time (ADR 061): OpenAI's model object carries `shutdown_date`;
 * the simulator reports it in that wire format, the real SDK retrieves it, and the status words it
 * by the app's clock. A model whose API gives no date is found in the announced table.
 */
const fx = useSimulatedDatabase();

const at = (iso: string) => () => new Date(`${iso}T09:00:00Z`);

async function statusOn(day: string, extra?: Record<string, string>) {
  const { app, providerStatus } = await createTestApp(fx.db, { simulator: fx.sim, env: liveProviderEnv(fx.sim, extra), clock: at(day) });
  await providerStatus.checkNow();
  return createAgent(app).api.status();
}

describe("a model that shuts down is named ahead of time, from its API's date", () => {
  const model = providerConfig.openai.defaultModel;

  test("31 days before: no warning", async () => {
    fx.sim.setShutdown("openai", model, "2027-01-11");
    try {
      const status = await statusOn("2026-12-11");
      expect(status.providers.openai).toMatchObject({ state: "connected", label: "Connected" });
      expect(status.providers.openai.shutdowns).toBeUndefined();
    } finally {
      fx.sim.setShutdown("openai", model, undefined);
    }
  });

  for (const [day, left] of [
    ["2026-12-12", 30],
    ["2026-12-13", 29],
  ] as const)
    test(`${left} days before: amber, with the date and the variable to change`, async () => {
      fx.sim.setShutdown("openai", model, "2027-01-11");
      try {
        const status = await statusOn(day);
        expect(status.openai).toBe(true);
        expect(status.providers.openai).toMatchObject({
          state: "degraded",
          label: "Shuts Down Soon",
          message: `${model} shuts down on 11 Jan 2027: set OPENAI_MODEL to a current model.`,
          shutdowns: [{ role: "search", model, date: "2027-01-11", source: "api", when: "soon" }],
        });
      } finally {
        fx.sim.setShutdown("openai", model, undefined);
      }
    });

  test("on and after the date: failing, saying it was shut down", async () => {
    fx.sim.setShutdown("openai", model, "2027-01-11");
    try {
      for (const day of ["2027-01-11", "2027-02-01"]) {
        const status = await statusOn(day);
        expect(status.openai).toBe(false);
        expect(status.providers.openai).toMatchObject({
          state: "failing",
          failure: "model_not_found",
          label: "Model Shut Down",
          message: `${model} was shut down on 11 Jan 2027: set OPENAI_MODEL to a current model.`,
        });
      }
    } finally {
      fx.sim.setShutdown("openai", model, undefined);
    }
  });

  test("gpt-5-mini: the API's date, and the replacement OpenAI names", async () => {
    fx.sim.setShutdown("openai", "gpt-5-mini", "2026-12-11");
    try {
      const status = await statusOn("2026-12-07", { OPENAI_MODEL: "gpt-5-mini" });
      expect(status.providers.openai).toMatchObject({
        state: "degraded",
        message: "gpt-5-mini shuts down on 11 Dec 2026: set OPENAI_MODEL to gpt-6.1-terra.",
        shutdowns: [{ model: "gpt-5-mini", date: "2026-12-11", replacement: "gpt-6.1-terra", source: "api", when: "soon" }],
      });
    } finally {
      fx.sim.setShutdown("openai", "gpt-5-mini", undefined);
    }
  });

  test("the reading model shutting down names its own variable; searches are unaffected", async () => {
    fx.sim.setShutdown("openai", "gpt-5-nano", "2026-12-11");
    try {
      const status = await statusOn("2026-12-07", { OPENAI_EXTRACTION_MODEL: "gpt-5-nano" });
      expect(status.openai).toBe(true);
      expect(status.providers.openai).toMatchObject({
        state: "degraded",
        message: "gpt-5-nano shuts down on 11 Dec 2026: set OPENAI_EXTRACTION_MODEL to a current model.",
        shutdowns: [{ role: "extraction", model: "gpt-5-nano" }],
      });
    } finally {
      fx.sim.setShutdown("openai", "gpt-5-nano", undefined);
    }
  });
});

describe("a model whose API gives no date: the announced table", () => {
  test("gemini-3.1-flash-lite (Google's page: 7 May 2027) warns from 7 April 2027", async () => {
    const before = await statusOn("2027-04-06", { GEMINI_MODEL: "gemini-3.1-flash-lite" });
    expect(before.providers.gemini.state).toBe("connected");
    const soon = await statusOn("2027-04-20", { GEMINI_MODEL: "gemini-3.1-flash-lite" });
    expect(soon.providers.gemini).toMatchObject({
      state: "degraded",
      message: "gemini-3.1-flash-lite shuts down on 7 May 2027: set GEMINI_MODEL to a current model.",
      shutdowns: [{ model: "gemini-3.1-flash-lite", date: "2027-05-07", source: "announced", when: "soon" }],
    });
  });

  test("the defaults have no shutdown announced", async () => {
    const status = await statusOn("2026-12-07");
    for (const health of Object.values(status.providers)) expect(health.shutdowns).toBeUndefined();
  });
});

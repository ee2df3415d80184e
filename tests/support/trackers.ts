/**
 * A tracker whose alerts the simulator can make (issue 26): two CRM questions at 10 answers each per
 * provider, HubSpot and a competitor with their own domains, so that a provider that stops
 * searching the web (simulator fault `no_search`) visibly stops citing hubspot.com.
 */
export const alertingTracker = {
  name: "CRM visibility",
  queries: ["best crm for startups", "best crm for small business"],
  brand: { name: "HubSpot", domains: ["hubspot.com"] },
  competitors: [{ name: "Salesforce", domains: ["salesforce.com"] }],
  iterations: 10,
  schedule: { cron: "0 9 * * 1", timezone: "UTC" },
};

import { DAILY_LIMIT_MESSAGE } from "#src/contract/constants.ts";

/**
 * Toasts the product shows from more than one place, in the spec's words (§5, §8). Plain data,
 * so the first page carries them without the toast component.
 */
export const messages = {
  emptyQuery: { variant: "destructive", title: "Empty search query", description: "Please enter a search query to continue" },
  dailyLimit: { variant: "destructive", title: "Daily Search Limit Reached", description: DAILY_LIMIT_MESSAGE },
  proFeature: { title: "Pro Feature", description: "Multiple search iterations is a Pro feature. Upgrade to access this feature." },
  alreadySubscribed: { title: "Already Subscribed", description: "You already have an active Pro subscription." },
  checkoutError: { variant: "destructive", title: "Checkout Error", description: "Could not start the checkout process. Please try again." },
  proActive: { title: "Pro Subscription Active", description: "Thank you for subscribing! You now have access to all Pro features." },
} as const satisfies Record<string, { variant?: "destructive"; title: string; description: string }>;

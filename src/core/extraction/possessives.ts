import { nameKey } from "../names.ts";

/**
 * Rule c inside names: "Acme's Rocket 3" is the product "Acme Rocket 3". A possessive word
 * followed by more words loses its "'s" when the answer vouches for the plain spelling: the
 * words before it are one of its companies ("Acme"), or the whole name without it is another
 * name in the answer. A brand whose own name is possessive keeps it when a company writes it so
 * ("Hill's Science Diet" beside "Hill's Pet Nutrition", "The Farmer's Dog"); without evidence
 * either way the name is left as written. Returns the rewrite for one name.
 */
export function possessiveRemover(names: string[], companies: string[]): (name: string) => string {
  const known = new Set(names.map(nameKey));
  const companyKeys = new Set(companies.map(nameKey));
  const ownPossessives = new Set(
    companies.flatMap((company) =>
      nameKey(company)
        .split(" ")
        .filter((word) => POSSESSIVE.test(word)),
    ),
  );
  return (name) => {
    const words = name.split(" ");
    for (let i = 0; i < words.length - 1; i++) {
      const word = words[i] ?? "";
      if (!POSSESSIVE.test(word) || ownPossessives.has(nameKey(word))) continue;
      const plain = [...words.slice(0, i), word.replace(POSSESSIVE, ""), ...words.slice(i + 1)];
      const owner = nameKey(plain.slice(0, i + 1).join(" "));
      if (companyKeys.has(owner) || known.has(nameKey(plain.join(" ")))) return plain.join(" ");
    }
    return name;
  };
}

const POSSESSIVE = /['’]s$/;

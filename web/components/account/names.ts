import type { User } from "#src/contract/auth.ts";

export type Person = Pick<User, "username" | "firstName" | "lastName" | "email" | "profileImageUrl">;

/** "First Last", else the username: registration asks for no name, so it may be missing. */
export function displayName(user: Person): string {
  return (
    [user.firstName, user.lastName]
      .map((part) => part.trim())
      .filter(Boolean)
      .join(" ") || user.username
  );
}

/** Spec §2: initials from the first and last name, else the email's first letter, else "U". */
export function initialsOf(user: Pick<Person, "firstName" | "lastName" | "email">): string {
  const fromName = [user.firstName, user.lastName].map((part) => part.trim().charAt(0)).join("");
  if (fromName) return fromName.toUpperCase();
  const fromEmail = user.email.trim().charAt(0);
  return fromEmail ? fromEmail.toUpperCase() : "U";
}

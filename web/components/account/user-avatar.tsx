import type { User } from "#src/contract/auth.ts";
import { Avatar, AvatarFallback, AvatarImage } from "#web/components/ui/avatar.tsx";
import { cn } from "#web/lib/utils.ts";

type Person = Pick<User, "username" | "firstName" | "lastName" | "email" | "profileImageUrl">;

/** "First Last", else the username: registration asks for no name, so it may be missing. */
export function displayName(user: Person): string {
  return [user.firstName, user.lastName].map((part) => part.trim()).filter(Boolean).join(" ") || user.username;
}

/** Spec §2: initials from the first and last name, else the email's first letter, else "U". */
export function initialsOf(user: Pick<Person, "firstName" | "lastName" | "email">): string {
  const fromName = [user.firstName, user.lastName].map((part) => part.trim().charAt(0)).join("");
  if (fromName) return fromName.toUpperCase();
  const fromEmail = user.email.trim().charAt(0);
  return fromEmail ? fromEmail.toUpperCase() : "U";
}

/**
 * The profile image, or the initials while it loads or when there is none. Decorative: whatever
 * shows it also shows the name (or labels the control with it).
 */
export function UserAvatar({ user, className }: { user: Person; className?: string }) {
  return (
    <Avatar className={cn(className)} aria-hidden="true">
      {user.profileImageUrl ? <AvatarImage src={user.profileImageUrl} alt="" /> : null}
      <AvatarFallback className="font-medium">{initialsOf(user)}</AvatarFallback>
    </Avatar>
  );
}

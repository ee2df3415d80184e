type Clipboard = Pick<globalThis.Clipboard, "writeText">;
type CopyCommand = { execCommand(command: "copy"): boolean };

/**
 * Copies `text` for the person: through the Clipboard API where the browser allows it (https
 * and localhost), else by selecting `field` and the older copy command. False when neither
 * worked; the field's text is then left selected, ready for Ctrl+C.
 */
export async function copyText(
  text: string,
  field: HTMLInputElement | null,
  { clipboard, document }: { clipboard: Clipboard | undefined; document: CopyCommand | undefined } = {
    clipboard: globalThis.navigator?.clipboard,
    document: globalThis.document,
  },
): Promise<boolean> {
  if (clipboard) {
    try {
      await clipboard.writeText(text);
      return true;
    } catch {
      // Refused (no permission, or the page is not focused): the field is the way left.
    }
  }
  if (!field) return false;
  field.focus();
  field.select();
  try {
    return document?.execCommand("copy") ?? false;
  } catch {
    return false;
  }
}

/**
 * Terminal escape sequences: OSC strings (titles, hyperlinks) ended by BEL or ESC \, CSI sequences
 * (colours, cursor moves) with ESC [ or the one-character U+009B, the two-character ESC forms, and one
 * cut off at the end of the text.
 */
const SEQUENCES =
  /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\|$)|(?:\u001b\[|\u009b)[0-?]*[ -/]*(?:[@-~]|$)|\u001b[ -/]*[0-~]?/g;

/** Control characters left after the sequences are gone, less the tab and line feed a text keeps. */
const STRAY_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** `text` as a reader sees it on a terminal: colour and other escape sequences and stray control characters taken out. */
export function withoutTerminalCodes(text: string): string {
  return text.replace(SEQUENCES, '').replace(STRAY_CONTROLS, '');
}

// The contract's tools as an installed app: defined with the toolkit the app is handed, as an app author would.
import { contractTools } from '../contract-tools.mjs';

export default function contractApp({ toolkit }) {
  return { tools: contractTools(toolkit) };
}

import { useLayoutEffect, useState } from 'preact/hooks';
import { whenUnauthorized } from '../api.js';
import { useHashRoute } from '../use-hash-route.js';
import { ChatPage } from './chat-page.js';
import { SessionsPage } from './sessions-page.js';
import { SignInForm } from './sign-in-form.js';
import { ToolsPage } from './tools-page.js';

/** The page: a header with its two places, then the sessions list, a chat, or the Tools page. */
export function App() {
  const route = useHashRoute();
  const [signedOut, setSignedOut] = useState(false);
  // Bumped after signing in, so the open view loads again.
  const [generation, setGeneration] = useState(0);
  // In the same commit as the views' first requests (layout effects), so no 401 can come before it.
  useLayoutEffect(() => whenUnauthorized(() => setSignedOut(true)), []);

  const signedIn = () => {
    setSignedOut(false);
    setGeneration((g) => g + 1);
  };
  return (
    <>
      <header class="top">
        <a class="brand" href="#/">
          toolseam
        </a>
        <nav aria-label="Main">
          <a class="nav-link" href="#/" aria-current={route.page !== 'tools' ? 'page' : undefined}>
            Sessions
          </a>
          <a class="nav-link" href="#/tools" aria-current={route.page === 'tools' ? 'page' : undefined}>
            Tools
          </a>
        </nav>
      </header>
      <main key={generation}>
        {signedOut ? (
          <SignInForm onSignedIn={signedIn} />
        ) : route.page === 'tools' ? (
          <ToolsPage />
        ) : route.page === 'chat' ? (
          <ChatPage key={route.id} sessionId={route.id} />
        ) : (
          <SessionsPage />
        )}
      </main>
    </>
  );
}

import { useEffect, useState } from 'react';

export interface TypewriterOptions {
  charMs: number;
  holdMs: number;
  paused: boolean;
  /** Reduced motion: each message appears whole (no typing), and still changes at the same pace. */
  reduced: boolean;
}

/**
 * Types `messages` one character at a time, holds each finished message, then moves to the next,
 * cycling forever. Returns the message index and the text shown so far.
 */
export function useTypewriter(messages: readonly string[], opts: TypewriterOptions) {
  const { charMs, holdMs, paused, reduced } = opts;
  const [state, setState] = useState({ index: 0, chars: 0 });
  const message = messages[state.index] ?? '';

  useEffect(() => {
    if (paused || messages.length === 0) return;
    const next = { index: (state.index + 1) % messages.length, chars: 0 };
    let delay: number;
    let then: { index: number; chars: number };
    if (reduced) {
      // Same rhythm as the animated version, without the motion.
      delay = message.length * charMs + holdMs;
      then = next;
    } else if (state.chars < message.length) {
      delay = charMs;
      then = { index: state.index, chars: state.chars + 1 };
    } else {
      delay = holdMs;
      then = next;
    }
    const t = setTimeout(() => setState(then), delay);
    return () => clearTimeout(t);
  }, [state, paused, reduced, message, messages.length, charMs, holdMs]);

  return {
    index: state.index,
    message,
    text: reduced ? message : message.slice(0, state.chars),
  };
}

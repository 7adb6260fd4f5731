import { LIMITS } from '@ct/contracts/limits';
import { TIMINGS } from '../lib/timings';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useDebounced } from '../hooks/useDebounced';
import './SuggestInput.css';

export interface SuggestInputProps {
  /** The input's id (its label points at it). */
  id: string;
  label: string;
  /** Keep the label for screen readers only. */
  hideLabel?: boolean;
  value: string;
  onChange(value: string): void;
  /** Called when the student picks a suggestion (the input is already filled with it). */
  onSelect?(value: string): void;
  /**
   * Loads suggestions for the typed text; called only for at least 3 characters, after a 1 s pause.
   * The signal aborts when the text changes again.
   */
  fetchSuggestions(query: string, signal: AbortSignal): Promise<string[]>;
  /** The suggestions could not be loaded (the list stays empty). */
  onFetchError?(query: string, err: unknown): void;
  /** Suggestions are being loaded. */
  onLoadingChange?(loading: boolean): void;
  placeholder?: string;
  disabled?: boolean;
  maxLength?: number;
  name?: string;
  required?: boolean;
}

/**
 * A text input with an autocomplete list (ARIA 1.2 combobox): suggestions load once typing stops for
 * 1 s and the text has at least 3 characters, otherwise the list is emptied. Arrow keys move through the
 * list, Enter picks, Escape closes; the list is at most 10rem tall.
 */
export function SuggestInput({
  id,
  label,
  hideLabel,
  value,
  onChange,
  onSelect,
  fetchSuggestions,
  onFetchError,
  onLoadingChange,
  placeholder,
  disabled,
  maxLength = 200,
  name,
  required,
}: SuggestInputProps) {
  const listId = `${useId()}-listbox`;
  const inputRef = useRef<HTMLInputElement>(null);
  const [items, setItems] = useState<string[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [loading, setLoading] = useState(false);
  const debounced = useDebounced(value, TIMINGS.suggestionDebounceMs);
  // The text of a picked suggestion must not reopen the list once its debounce fires.
  const picked = useRef<string | null>(null);
  const inFlight = useRef<AbortController | null>(null);
  // Callbacks live in refs so a parent re-rendering with new closures does not refetch.
  const fetchRef = useRef(fetchSuggestions);
  const errorRef = useRef(onFetchError);
  const loadingRef = useRef(onLoadingChange);
  useEffect(() => {
    fetchRef.current = fetchSuggestions;
    errorRef.current = onFetchError;
    loadingRef.current = onLoadingChange;
  });

  useEffect(() => {
    const q = debounced.trim();
    if (q.length < LIMITS.suggestionMinLength || debounced === picked.current) return;
    const ctrl = new AbortController();
    inFlight.current = ctrl;
    setLoading(true);
    loadingRef.current?.(true);
    fetchRef
      .current(q, ctrl.signal)
      .then((list) => {
        if (ctrl.signal.aborted) return;
        setItems(list);
        setActive(-1);
        setOpen(list.length > 0 && document.activeElement === inputRef.current);
      })
      .catch((err: unknown) => {
        if (ctrl.signal.aborted) return;
        setItems([]);
        setOpen(false);
        errorRef.current?.(q, err);
      })
      .finally(() => {
        if (ctrl.signal.aborted) return;
        setLoading(false);
        loadingRef.current?.(false);
      });
    return () => {
      ctrl.abort();
      setLoading(false);
      loadingRef.current?.(false);
    };
  }, [debounced]);

  const change = (next: string) => {
    picked.current = null;
    onChange(next);
    if (next.trim().length < LIMITS.suggestionMinLength) {
      // An answer still on its way for longer text must not reopen the list.
      inFlight.current?.abort();
      setItems([]);
      setOpen(false);
      setActive(-1);
    }
  };

  const pick = (choice: string) => {
    picked.current = choice;
    onChange(choice);
    setItems([]);
    setOpen(false);
    setActive(-1);
    onSelect?.(choice);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const n = items.length;
    switch (e.key) {
      case 'ArrowDown':
        if (!n) return;
        e.preventDefault();
        setOpen(true);
        setActive((a) => (open ? (a + 1) % n : 0));
        break;
      case 'ArrowUp':
        if (!n) return;
        e.preventDefault();
        setOpen(true);
        setActive((a) => (open ? (a <= 0 ? n - 1 : a - 1) : n - 1));
        break;
      case 'Enter':
        // Without a highlighted suggestion, Enter submits the surrounding form as usual.
        if (open && active >= 0 && items[active] !== undefined) {
          e.preventDefault();
          pick(items[active]);
        }
        break;
      case 'Escape':
        if (open) {
          e.preventDefault();
          setOpen(false);
          setActive(-1);
        }
        break;
      default:
    }
  };

  const expanded = open && items.length > 0;
  const optionId = (i: number) => `${listId}-${i}`;

  return (
    <div className="suggest">
      <label htmlFor={id} className={hideLabel ? 'visually-hidden' : undefined}>
        {label}
      </label>
      <div className="suggest-box">
        <input
          ref={inputRef}
          id={id}
          name={name}
          type="text"
          role="combobox"
          autoComplete="off"
          spellCheck={false}
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
          aria-busy={loading || undefined}
          value={value}
          placeholder={placeholder}
          disabled={disabled}
          maxLength={maxLength}
          required={required}
          onChange={(e) => change(e.target.value)}
          onKeyDown={onKeyDown}
          onFocus={() => items.length > 0 && setOpen(true)}
          onBlur={() => {
            setOpen(false);
            setActive(-1);
          }}
        />
        <ul
          id={listId}
          role="listbox"
          // Not "<label> suggestions": the input must be the only element found by its own label.
          aria-label="Suggestions"
          className="suggest-list"
          hidden={!expanded}
        >
          {items.map((s, i) => (
            <li
              key={s}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'active' : undefined}
              // mousedown, not click: the input must keep focus so blur does not close the list first
              onMouseDown={(e) => {
                e.preventDefault();
                pick(s);
              }}
              onMouseMove={() => setActive(i)}
            >
              {s}
            </li>
          ))}
        </ul>
      </div>
      <span className="visually-hidden" role="status" aria-live="polite">
        {expanded ? `${items.length} suggestion${items.length === 1 ? '' : 's'} available` : ''}
      </span>
    </div>
  );
}

// A form control drawn from a Field declaration. Text the field cannot read stays in the box,
// marked, with the field's own sentence saying what is allowed; the state (and the URL) only
// ever holds values the field accepts.
import { useEffect, useId, useState } from 'react';
import { FieldError, type Field } from '../state/fields.ts';
import { useReportValidity } from './field-validity.ts';

/** compact: no help line under the control (toolbars). */
export function Knob<T>({ name, field, value, onChange, disabled, compact }: { name: string; field: Field<T>; value: T; onChange: (v: T) => void; disabled?: boolean; compact?: boolean }) {
  const id = useId();
  const c = field.control;
  const formatted = field.format(value);
  const [draft, setDraft] = useState(formatted);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setDraft(formatted);
    setError(null);
  }, [formatted]);
  useReportValidity(name, c.kind === 'hidden' ? null : error);

  const accept = (text: string) => {
    setDraft(text);
    try {
      const v = field.parse(text.trim());
      setError(null);
      onChange(v);
    } catch (e) {
      if (!(e instanceof FieldError)) throw e;
      setError(e.message);
    }
  };

  if (c.kind === 'hidden') return null;
  if (c.kind === 'flag') {
    return (
      <label className="knob knob-flag" data-knob={name}>
        <span>
          <input type="checkbox" checked={value as boolean} disabled={disabled} onChange={(e) => onChange(e.target.checked as T)} /> {field.label}
        </span>
      </label>
    );
  }
  if (c.kind === 'multi') {
    const chosen = value as string[];
    return (
      <fieldset className="knob" data-knob={name}>
        <legend>{field.label}</legend>
        <div className="checks">
          {c.options.map((o) => (
            <label key={o.value}>
              <input
                type="checkbox"
                disabled={disabled}
                checked={chosen.includes(o.value)}
                onChange={(e) => {
                  const next = e.target.checked ? [...chosen, o.value] : chosen.filter((v) => v !== o.value);
                  accept(c.options.filter((x) => next.includes(x.value)).map((x) => x.value).join(','));
                }}
              />{' '}
              {o.label}
            </label>
          ))}
        </div>
        {error && <span className="field-error" role="alert">{error}</span>}
      </fieldset>
    );
  }
  const unit = 'unit' in c ? c.unit : undefined;
  return (
    <label className="knob" htmlFor={id} data-knob={name}>
      <span>
        {field.label}
        {unit ? <span className="unit"> ({unit})</span> : null}
      </span>
      {c.kind === 'select' ? (
        <select id={id} value={formatted} disabled={disabled} onChange={(e) => accept(e.target.value)}>
          {c.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          type="text"
          inputMode={c.kind === 'number-list' ? 'text' : 'decimal'}
          value={draft}
          disabled={disabled}
          placeholder={c.kind === 'optional-number' ? c.placeholder : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-err` : undefined}
          onChange={(e) => accept(e.target.value)}
        />
      )}
      {error && (
        <span className="field-error" id={`${id}-err`} role="alert">
          {error}
        </span>
      )}
      {field.help && !error && !compact && <span className="unit">{field.help}</span>}
    </label>
  );
}

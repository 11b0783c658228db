"""How results and policies show themselves: a short ``repr``, an HTML table for notebooks, and
a long-form table (:meth:`Display.to_frame`, pandas).

Every result and policy type inherits :class:`Display` (through
:class:`pigtheory.io.Saveable`). The text and HTML forms list each field with a summary,
never a whole array: an array's shape and type, the value at the opening state
(``value[0, ..., 0]``), a policy's type and name, the rules in words. ``to_frame()`` returns
one row per state (and per turn total or mixed threshold where a policy has them), the state's
scores first (``own``, ``other`` or ``other1``, ``other2``, ...), then one column per per-state
array.

pandas is an optional dependency: ``pip install "pigtheory[pandas]"``.
"""

from __future__ import annotations

import html
from dataclasses import fields, is_dataclass
from typing import Any

import numpy as np

__all__ = ["Display", "summary"]

_WIDE = 10  # fields are padded to at least this width in the text form


def summary(x: Any) -> str:
    """One line about a field's value: never its whole content.

    Examples
    --------
    >>> summary(np.zeros((101, 101))), summary(7.29e-13), summary("exact")
    ('array (101, 101) float64', '7.29e-13', "'exact'")
    """
    if isinstance(x, np.ndarray):
        return f"array {x.shape} {x.dtype}" if x.ndim else summary(x.item())
    if isinstance(x, (bool, np.bool_)):
        return str(bool(x))
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    if isinstance(x, (float, np.floating)):
        return f"{float(x):.6g}"
    if isinstance(x, str):
        return repr(x) if len(x) <= 60 else repr(x[:57] + "...")
    if type(x).__name__ == "Rules":
        return str(x)
    if isinstance(x, Display):
        arrays = [
            f"{f.name} {getattr(x, f.name).shape}"
            for f in fields(x)  # type: ignore[arg-type]
            if _is_array(getattr(x, f.name))
        ]
        name = getattr(x, "name", None)
        return " ".join([type(x).__name__] + ([repr(name)] if isinstance(name, str) else []) + arrays)
    if isinstance(x, (tuple, list)):
        return f"{type(x).__name__} of {len(x)}"
    if isinstance(x, dict):
        keys = ", ".join(map(str, list(x)[:4])) + (", ..." if len(x) > 4 else "")
        return f"dict of {len(x)} ({keys})"
    if x is None:
        return "None"
    return type(x).__name__


def _is_array(x: Any) -> bool:
    return isinstance(x, np.ndarray) and x.ndim > 0


def _pandas():
    try:
        import pandas
    except ImportError:  # pragma: no cover - depends on the installation
        raise ImportError(
            'to_frame() needs pandas, an optional dependency: pip install "pigtheory[pandas]"'
        ) from None
    return pandas


class Display:
    """Mixin: ``repr``, ``_repr_html_`` and :meth:`to_frame` for dataclass results and policies.

    Subclasses are dataclasses; the mixin's ``__repr__`` replaces the one ``dataclass`` would
    generate (which prints whole arrays).
    """

    __slots__ = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # in the class's own namespace, so that @dataclass does not write its own __repr__
        if "__repr__" not in cls.__dict__:
            cls.__repr__ = Display.__repr__  # type: ignore[method-assign]

    def _rows(self) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        if not is_dataclass(self):
            return out
        for f in fields(self):
            if f.name.startswith("_"):
                continue
            x = getattr(self, f.name)
            text = summary(x)
            if f.name == "value" and _is_array(x) and x.size:
                text += f"; at {(0,) * x.ndim}: {summary(x[(0,) * x.ndim])}"
            out.append((f.name, text))
        return out

    def __repr__(self) -> str:
        if is_dataclass(self) and set(self._scalar_fields()) == {f.name for f in fields(self)}:
            # nothing large inside (HoldAt(n=25)): the usual one-line form
            inner = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self))
            return f"{type(self).__name__}({inner})"
        rows = self._rows()
        wide = max([_WIDE] + [len(n) + 1 for n, _ in rows])
        lines = [type(self).__name__] + [f"  {name:<{wide}} {text}" for name, text in rows]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><th style='text-align:left'>{html.escape(n)}</th><td style='text-align:left'>"
            f"{html.escape(t)}</td></tr>"
            for n, t in self._rows()
        )
        return f"<table><caption style='text-align:left'><b>{type(self).__name__}</b></caption>{rows}</table>"

    def to_frame(self) -> Any:
        """A long-form :class:`pandas.DataFrame` (needs pandas: ``pigtheory[pandas]``).

        Results: one row per state of ``value`` (scores first: ``own``, ``other`` or
        ``other1``, ``other2``, ...; ``own``, ``other``, ``turn_total`` for sequential play),
        one column per array of the same states (``value`` and,
        over the non-terminal states, ``policy`` thresholds, certificates, ...; terminal
        states have NA there). A result without a value array gives one row of its numbers.
        Policies: one row per state (and turn total, or mixed threshold), see each type.

        Examples
        --------
        >>> from pigtheory import Rules, simultaneous
        >>> df = simultaneous.equilibrium(rules=Rules(goal=5)).to_frame()
        >>> df.columns[:3].tolist(), len(df)
        (['own', 'other', 'value'], 36)
        """
        pd = _pandas()
        value: Any = getattr(self, "value", None)
        if not _is_array(value):
            return pd.DataFrame([{n: getattr(self, n) for n in self._scalar_fields()}])
        shape = value.shape
        inner = tuple(s - 1 for s in shape)  # the non-terminal states, when value has the goal too
        index = np.indices(shape).reshape(len(shape), -1)
        names = getattr(self, "_frame_axes", None) or _axis_names(len(shape))
        cols: dict[str, Any] = {name: index[n] for n, name in enumerate(names[: len(shape)])}
        cols["value"] = value.ravel()  # a field, or a property built on request
        for name, arr in self._state_arrays(shape, inner):
            if arr.shape == shape:
                cols[name] = arr.ravel()
            else:
                full = pd.array([pd.NA] * int(np.prod(shape)), dtype=_nullable(arr.dtype))
                inside = np.all(index < np.array(inner)[:, None], axis=0)
                full[inside] = arr.ravel()
                cols[name] = full
        return pd.DataFrame(cols)

    def _scalar_fields(self) -> list[str]:
        keep = (bool, int, float, str, np.integer, np.floating, np.bool_)
        return [f.name for f in fields(self) if isinstance(getattr(self, f.name), keep)]  # type: ignore[arg-type]

    def _state_arrays(self, shape: tuple[int, ...], inner: tuple[int, ...]):
        for f in fields(self):  # type: ignore[arg-type]
            x = getattr(self, f.name)
            table = getattr(x, "table", None)
            if f.name == "policy" and isinstance(table, np.ndarray):  # a ThresholdTable
                x = table
            if f.name != "value" and _is_array(x) and x.shape in (shape, inner):
                yield f.name, x


def _nullable(dtype: np.dtype) -> str:
    return {"i": "Int64", "u": "Int64", "b": "boolean"}.get(dtype.kind, "Float64")


def _axis_names(ndim: int) -> list[str]:
    if ndim == 1:
        return ["own"]
    if ndim == 2:
        return ["own", "other"]
    return ["own"] + [f"other{n}" for n in range(1, ndim)]


def long_frame(
    arrays: dict[str, np.ndarray], extra: str | None = None, keep: np.ndarray | None = None
) -> Any:
    """Long form of state arrays of one shape: state columns (and ``extra``, the last axis),
    then one column per array; rows where ``keep`` is False are dropped."""
    pd = _pandas()
    first = next(iter(arrays.values()))
    ndim = first.ndim
    names = _axis_names(ndim - (extra is not None)) + ([extra] if extra else [])
    index = np.indices(first.shape).reshape(ndim, -1)
    cols: dict[str, Any] = {name: index[n] for n, name in enumerate(names)}
    cols.update({k: np.broadcast_to(v, first.shape).ravel() for k, v in arrays.items()})
    df = pd.DataFrame(cols)
    if keep is not None:
        df = df[np.broadcast_to(keep, first.shape).ravel()].reset_index(drop=True)
    return df

"""Stored records of the long solves: their format, and verification that recomputes and compares."""

from __future__ import annotations

import copy
import json

import pytest

from analyses import verify_large as vl


def test_every_stored_record_has_the_format():
    paths = sorted(vl.RECORDS.glob("*.json"))
    assert {p.stem for p in paths} >= {"seq_3p_goal30", "seq_3p_goal100", "seq_5p_goal40", "seq_6p_goal22"}
    for path in paths:
        rec = json.loads(path.read_text())
        vl.check_format(rec)
        assert rec["name"] == path.stem
        if rec["status"] == "recorded":
            players = rec["rules"]["players"]
            assert abs(sum(rec["start_values"]) - 1) < 1e-9  # somebody wins
            assert rec["start_values"] == sorted(rec["start_values"], reverse=True)  # first mover ahead
            assert [float.fromhex(h) for h in rec["start_values_hex"]] == pytest.approx(rec["start_values"])
            assert rec["certificate"]["nash_conv"] < 1e-12 and len(rec["start_values"]) == players
            assert rec["measured"]["peak_rss_bytes"] > 0 and rec["package_version"]
        else:
            assert "sha256" not in rec  # a planned record claims no result


def test_a_small_record_verifies_and_a_tampered_one_does_not():
    rec = vl.load("seq_3p_goal30")
    fresh = vl.compute(3, 30)
    assert vl.verify(rec, fresh) == []
    bad = copy.deepcopy(rec)
    bad["sha256"]["value"] = "0" * 64
    assert any("sha256[value]" in line for line in vl.verify(bad, fresh))
    bad = copy.deepcopy(rec)
    bad["start_values_hex"][0] = (float.fromhex(bad["start_values_hex"][0]) + 1e-15).hex()
    assert any("start values" in line for line in vl.verify(bad, fresh))


def test_a_record_with_certified_bounds_verifies_them_to_the_bit():
    rec = vl.load("seq_3p_goal30")
    fresh = vl.compute(3, 30, enclose=True)
    enc = fresh["enclosure"]
    start = [float.fromhex(h) for h in rec["start_values_hex"]]
    assert all(lo < v < hi for lo, v, hi in zip(enc["start_lower"], start, enc["start_upper"], strict=True))
    assert (
        0 < enc["start_radius"] < 1e-12 and fresh["certificate"]["nash_conv"] <= enc["nash_conv_upper"] < 1e-9
    )
    good = copy.deepcopy(rec) | {"enclosure": enc}
    assert vl.verify(good, fresh) == []
    bad = copy.deepcopy(good)
    bad["enclosure"]["nash_conv_upper_hex"] = (enc["nash_conv_upper"] / 2).hex()
    assert any("nash_conv_upper_hex" in line for line in vl.verify(bad, fresh))


def test_the_command_line_verifies_and_refuses(capsys, tmp_path, monkeypatch):
    rec = vl.load("seq_3p_goal30")
    monkeypatch.setattr(vl, "RECORDS", tmp_path)
    vl.write(rec)
    planned = {"format": 1, "name": "seq_5p_goal99", "status": "planned", "command": "-", "rules": {}}
    vl.write(planned, tmp_path)
    assert vl.main(["seq_3p_goal30", "seq_5p_goal99"]) == 0
    out = capsys.readouterr().out
    assert "seq_3p_goal30: OK" in out and "seq_5p_goal99: planned" in out
    assert vl.main(["no_such_record"]) == 2
    assert "record='no_such_record'" in capsys.readouterr().err


def test_malformed_records_are_refused():
    rec = vl.load("seq_3p_goal30")
    with pytest.raises(ValueError, match="missing 'sha256'"):
        vl.check_format({k: v for k, v in rec.items() if k != "sha256"})
    with pytest.raises(ValueError, match="status='done'"):
        vl.check_format(dict(rec, status="done"))
    with pytest.raises(ValueError, match="not a hex digest"):
        vl.check_format(dict(rec, sha256={"value": "xyz"}))
    with pytest.raises(ValueError, match="players=1"):
        vl.compute(1, 30)


def test_array_digest_sees_dtype_and_shape():
    import numpy as np

    a = np.arange(6, dtype=np.float64)
    assert vl.array_sha256(a) != vl.array_sha256(a.reshape(2, 3))
    assert vl.array_sha256(a) != vl.array_sha256(a.astype(np.float32))
    assert vl.array_sha256(a) == vl.array_sha256(a.copy())
    # the bytes are hashed in place (no copy of a large array): the digest of the bytes in C order
    import hashlib

    b = np.arange(24, dtype=np.float64).reshape(2, 3, 4).transpose(1, 0, 2)  # not C-contiguous
    want = hashlib.sha256(b"<f8(3, 2, 4)" + np.ascontiguousarray(b).tobytes()).hexdigest()
    assert vl.array_sha256(b) == want

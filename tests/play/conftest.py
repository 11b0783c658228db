"""Fixtures of the play site's tests: a small site built once per module (two opponents of the
sequential game; :func:`tests.play_support.build_test_site`)."""

from __future__ import annotations

import pytest

from tests.play_support import build_test_site


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """``(folder, opponents)`` of a small site built in this module's temporary folder."""
    return build_test_site(tmp_path_factory.mktemp("play-site"))

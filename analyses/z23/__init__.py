"""Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): simultaneous Pig."""

"""Multiplayer sequential Pig (3 to 10 players): the equilibrium by rotation groups, its
certificates and enclosures, the chunked solve on the out-of-core runtime and its plan, and
the multiplayer game simulator (the public names are in :mod:`pigtheory.sequential`)."""

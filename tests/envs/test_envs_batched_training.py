"""The batched training's features are the expert's, seat for seat."""

from __future__ import annotations

import numpy as np
import pytest
from batchkit import EngineTwins

from mantis.envs.batched import MantisBatch
from training.train_expert import _features_of
from training.train_expert_batched import batch_features, generate


@pytest.mark.parametrize("players", [2, 4])
def test_batch_features_are_the_expert_features_of_every_seat(players):
    batch = MantisBatch(8, players, seed=3)
    engine = EngineTwins(batch)
    rng = np.random.default_rng(0)
    for _ in range(120):
        features = batch_features(batch)
        for g in range(8):
            want = _features_of(engine[g].view(), batch.pile_at_deal)
            assert features[g] == pytest.approx(np.array(want), abs=1e-12)
        actions = rng.integers(0, players, size=8)
        engine.step(actions)


def test_generate_labels_every_kept_position_with_its_games_result():
    x, y = generate(2, 40, seed=1, epsilon=0.03, batch_size=16)
    assert x.shape[1:] == (2, 14) and len(x) == len(y) > 40 * 10
    assert np.allclose(y.sum(axis=1), 1.0)
    # the first position of a game has both scores 0 and a full pile (phase 1)
    starts = np.flatnonzero(x[:, 0, 12] == 1.0)
    assert len(starts) == 40

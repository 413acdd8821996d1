"""A linear SVM with calibrated probabilities, stored as plain JSON numbers.

Tsikrika et al. classify with SVMs and use their confidence as a score in
[0, 1].  scikit-learn's LinearSVC learns the weights; Platt scaling (a
logistic fit of the held-out decision values, as CalibratedClassifierCV's
``sigmoid`` method does) maps the margin to a probability.  Only the numbers
are kept (weights, bias, Platt's A and B), so a model file is data, never code:
no pickle, no joblib.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


class ModelFileError(ValueError):
    """A model file that is missing, unreadable, of another kind or of another version."""


@dataclass
class CalibratedLinearSVM:
    weights: np.ndarray
    bias: float
    platt_a: float
    platt_b: float

    def decision(self, x: np.ndarray) -> np.ndarray:
        return x @ self.weights + self.bias

    def probability(self, x: np.ndarray) -> np.ndarray:
        """P(positive | x) for each row of ``x`` (or a single vector)."""
        z = self.platt_a * self.decision(x) + self.platt_b
        return 1.0 / (1.0 + np.exp(-np.clip(z, -50, 50)))

    def to_json(self) -> dict[str, Any]:
        return {
            "weights": [round(float(w), 7) for w in self.weights],
            "bias": float(self.bias),
            "platt_a": float(self.platt_a),
            "platt_b": float(self.platt_b),
        }

    @classmethod
    def from_json(cls, data: Any, n_features: int) -> CalibratedLinearSVM:
        try:
            weights = np.asarray(data["weights"], dtype=np.float64)
            model = cls(weights, float(data["bias"]), float(data["platt_a"]), float(data["platt_b"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelFileError(f"bad SVM parameters ({exc})") from None
        if weights.ndim != 1 or weights.shape[0] != n_features or not np.all(np.isfinite(weights)):
            raise ModelFileError(f"SVM has {weights.shape} weights, expected {n_features} finite numbers")
        return model

    @classmethod
    def fit(cls, x: Any, y: np.ndarray, c: float = 1.0, folds: int = 3, seed: int = 0) -> CalibratedLinearSVM:
        """Learn the SVM on all of ``x``; calibrate on ``folds``-fold held-out decision values.

        Classes are balanced in the SVM and in the calibration (relevant links and maps are the
        minority): the probability is the one under equal priors.  Needs
        both classes; with fewer than ``folds`` examples of one, the in-sample
        decision values are used for the calibration.
        """
        from sklearn.linear_model import LogisticRegression
        from sklearn.model_selection import StratifiedKFold, cross_val_predict
        from sklearn.svm import LinearSVC

        y = np.asarray(y, dtype=int)
        if len(set(y.tolist())) < 2:
            raise ValueError("training needs positive and negative examples")

        def svc() -> LinearSVC:
            return LinearSVC(C=c, class_weight="balanced", max_iter=20000, random_state=seed)

        svm = svc().fit(x, y)
        if min(int(y.sum()), int(len(y) - y.sum())) >= folds:
            cv = StratifiedKFold(n_splits=folds, shuffle=True, random_state=seed)
            held_out = cross_val_predict(svc(), x, y, cv=cv, method="decision_function")
        else:
            held_out = svm.decision_function(x)
        # Balanced, like the SVM: the probability under equal priors, so t = 0.5 is the SVM's own
        # boundary and thresholds 0.1..0.9 spread over the links (with the true prior of a few per
        # cent relevant links, hardly any link would reach 0.5).
        platt = LogisticRegression(C=1e6, class_weight="balanced").fit(np.asarray(held_out).reshape(-1, 1), y)
        return cls(
            np.asarray(svm.coef_[0], dtype=np.float64),
            float(svm.intercept_[0]),
            float(platt.coef_[0][0]),
            float(platt.intercept_[0]),
        )

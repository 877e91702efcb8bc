"""The Texel method: fit evaluation weights so that a sigmoid of the eval
predicts the labels of the positions (Peter Oesterlund's method, Chess
Programming Wiki "Texel's Tuning Method"; the linear-trace form of the
gradient follows Andrew Grant's "Evaluation & Tuning in Chess Engines").

    p(e)   = 1 / (1 + 10 ** (-K * e / 400))          e: eval, white's view
    target = lam * result + (1 - lam) * p_sf(stockfish score)
    loss   = mean((p(e) - target) ** 2)

K is fitted first, with the starting weights, to the game results alone.
The weights are then fitted by full-batch Adam on the analytic gradient.
"""
import math

import numpy as np

LN10_400 = math.log(10) / 400.0


def win_probability(evals, k):
    return 1.0 / (1.0 + np.power(10.0, -k * evals / 400.0))


def mse(evals, target, k):
    return float(np.mean((win_probability(evals, k) - target) ** 2))


def fit_k(evals, target, lo=0.05, hi=5.0, iterations=60):
    """K minimising the loss of fixed evals (golden-section search)."""
    ratio = (math.sqrt(5) - 1) / 2
    a, b = lo, hi
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    fc, fd = mse(evals, target, c), mse(evals, target, d)
    for _ in range(iterations):
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - ratio * (b - a)
            fc = mse(evals, target, c)
        else:
            a, c, fc = c, d, fd
            d = a + ratio * (b - a)
            fd = mse(evals, target, d)
    return (a + b) / 2


class LinearEval:
    """eval = rho_mg * (A @ w_mg) + rho_eg * (A @ w_eg) over a FeatureSet.

    The sparse products run as gathers into preallocated buffers and
    segment sums (np.add.reduceat) over the entries sorted by position, and
    by weight for the transpose: no large temporary per step."""

    def __init__(self, features, n_weights):
        self.n = features.size
        self.n_weights = n_weights
        rows, cols = features.rows.astype(np.int64), features.cols.astype(np.int64)
        coef_mg = features.vals.astype(np.float64) * features.rho_mg[rows]
        coef_eg = features.vals.astype(np.float64) * features.rho_eg[rows]
        by_row = np.argsort(rows, kind="stable")
        self.cols = cols[by_row]
        self.coef_mg, self.coef_eg = coef_mg[by_row], coef_eg[by_row]
        self.row_ids, self.row_starts = np.unique(rows[by_row], return_index=True)
        by_col = np.argsort(cols, kind="stable")
        self.rows_t = rows[by_col]
        self.coef_mg_t, self.coef_eg_t = coef_mg[by_col], coef_eg[by_col]
        self.col_ids, self.col_starts = np.unique(cols[by_col], return_index=True)
        self.buf = np.empty(len(cols))
        self.buf2 = np.empty(len(cols))

    def evals(self, w_mg, w_eg):
        out = np.zeros(self.n)
        if len(self.buf) == 0:
            return out
        np.take(np.asarray(w_mg, dtype=np.float64), self.cols, out=self.buf)
        self.buf *= self.coef_mg
        np.take(np.asarray(w_eg, dtype=np.float64), self.cols, out=self.buf2)
        self.buf2 *= self.coef_eg
        self.buf += self.buf2
        out[self.row_ids] = np.add.reduceat(self.buf, self.row_starts)
        return out

    def gradient(self, d_evals):
        """(d/dw_mg, d/dw_eg) of sum(d_evals * evals)."""
        g_mg, g_eg = np.zeros(self.n_weights), np.zeros(self.n_weights)
        if len(self.buf) == 0:
            return g_mg, g_eg
        np.take(np.asarray(d_evals, dtype=np.float64), self.rows_t, out=self.buf)
        np.multiply(self.buf, self.coef_mg_t, out=self.buf2)
        g_mg[self.col_ids] = np.add.reduceat(self.buf2, self.col_starts)
        np.multiply(self.buf, self.coef_eg_t, out=self.buf2)
        g_eg[self.col_ids] = np.add.reduceat(self.buf2, self.col_starts)
        return g_mg, g_eg


def fit(model, target, k, w_mg, w_eg, epochs=300, lr=1.0, l2=0.0, report=None):
    """Adam on the weights (floats, centipawns), starting from w_mg, w_eg.
    l2 pulls each weight towards its start (per cp^2, relative to the loss).
    Returns the fitted (w_mg, w_eg) as floats."""
    start = np.concatenate([w_mg, w_eg]).astype(np.float64)
    theta = start.copy()
    m = np.zeros_like(theta)
    v = np.zeros_like(theta)
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    nw = len(w_mg)
    for epoch in range(1, epochs + 1):
        e = model.evals(theta[:nw], theta[nw:])
        p = win_probability(e, k)
        d_e = 2.0 * (p - target) * p * (1.0 - p) * k * LN10_400 / len(target)
        g_mg, g_eg = model.gradient(d_e)
        grad = np.concatenate([g_mg, g_eg]) + 2.0 * l2 * (theta - start)
        m = beta1 * m + (1 - beta1) * grad
        v = beta2 * v + (1 - beta2) * grad * grad
        # cosine decay of the step, to settle at the end
        step = lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * epoch / epochs)))
        theta -= step * (m / (1 - beta1 ** epoch)) / (np.sqrt(v / (1 - beta2 ** epoch)) + eps)
        if report and (epoch % 25 == 0 or epoch == epochs):
            report(epoch, float(np.mean((p - target) ** 2)))
    return theta[:nw], theta[nw:]

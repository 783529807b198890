#include "diloco/Optimizers.h"

#include <cmath>

namespace cohort::diloco {

void AdamWState::reset(size_t count)
{
    m.assign(count, 0.0f);
    v.assign(count, 0.0f);
    step = 0;
}

double adamWStep(std::span<float> weights, std::span<const float> gradient, AdamWState &state,
                 const AdamWOptions &options)
{
    if (state.m.size() != weights.size() || state.v.size() != weights.size())
        state.reset(weights.size());
    double sq = 0;
    for (float g : gradient)
        sq += double(g) * double(g);
    const double norm = std::sqrt(sq);
    if (!std::isfinite(norm))
        return norm; // skipped: one bad batch must not poison the weights
    const double clip = (options.gradClip > 0 && norm > options.gradClip) ? options.gradClip / (norm + 1e-6) : 1.0;
    ++state.step;
    const double bias1 = 1.0 - std::pow(options.beta1, double(state.step));
    const double bias2 = 1.0 - std::pow(options.beta2, double(state.step));
    const float b1 = float(options.beta1), b2 = float(options.beta2);
    const float stepSize = float(options.learningRate / bias1);
    const float decay = float(1.0 - options.learningRate * options.weightDecay);
    const float eps = float(options.epsilon);
    const float invSqrtBias2 = float(1.0 / std::sqrt(bias2));
    const float scale = float(clip);
    float *w = weights.data();
    float *m = state.m.data();
    float *v = state.v.data();
    const float *gr = gradient.data();
    for (size_t i = 0; i < weights.size(); ++i) {
        const float g = gr[i] * scale;
        m[i] = b1 * m[i] + (1.0f - b1) * g;
        v[i] = b2 * v[i] + (1.0f - b2) * g * g;
        const float denom = std::sqrt(v[i]) * invSqrtBias2 + eps;
        w[i] = w[i] * decay - stepSize * m[i] / denom;
    }
    return norm;
}

void nesterovOuterStep(std::span<float> global, std::span<float> momentum, std::span<const float> delta,
                       float learningRate, float mu)
{
    for (size_t i = 0; i < global.size(); ++i) {
        const float buf = mu * momentum[i] + delta[i];
        momentum[i] = buf;
        global[i] -= learningRate * (delta[i] + mu * buf);
    }
}

} // namespace cohort::diloco

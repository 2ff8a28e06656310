#include "compute/model/Sweep.h"
#include "compute/model/Units.h"

#include <cmath>

namespace bv {
namespace {

// The reference keeps "unset" as a negative number; its rules compare against that.
constexpr double kUnset = -1.0;

int ceilToInt(double x) { return static_cast<int>(std::ceil(x)); }

// Shared skeleton of the divergence, dispersion and thickness rules. They differ in two
// places only: the range used when the user gives nothing but a count, and the step when
// the user gives nothing but a range.
Sweep resolveEvenSweep(const SweepRequest& request, double rangeForCountOnly, bool rangeOnlyHalves) {
    double range = request.range.value_or(kUnset);
    double step = request.step.value_or(kUnset);
    int steps = request.steps.value_or(-1);
    if (steps <= 0) {
        if (range < 0.0) {
            if (step <= 0.0) {
                steps = 1;
                range = 0.0;
                step = 0.0;
            } else {
                range = step;
                steps = 2;
            }
        } else if (step <= 0.0) {
            steps = 2;
            step = rangeOnlyHalves ? range / steps : range;
        } else {
            steps = ceilToInt(range / step);
        }
    } else if (range < 0.0) {
        if (step <= 0.0) {
            range = rangeForCountOnly;
            step = range / steps;
        } else {
            range = step;
            steps = 2;
        }
    } else if (step <= 0.0) {
        if (steps <= 1)
            steps = 2;
        step = range / (steps - 1);
    }
    // a sweep of nothing is one sample at the centre
    if (range <= 0.0 || step <= 0.0 || steps <= 0)
        return Sweep{0.0, 0.0, 1};
    return Sweep{range, step, steps};
}

} // namespace

Sweep resolveSpreadSweep(const SweepRequest& request) {
    return resolveEvenSweep(request, 1.0, false);
}

Sweep resolveThicknessSweep(const SweepRequest& request) {
    return resolveEvenSweep(request, 0.5e-6, true);
}

Sweep resolvePhiSweep(const SweepRequest& request) {
    double osc = request.range.value_or(kUnset);
    double step = request.step.value_or(kUnset);
    int steps = request.steps.value_or(-1);
    if (steps < 0) {
        if (osc < 0.0) {
            if (step <= 0.0) {
                steps = 1;
                osc = 0.0;
                step = 0.0;
            } else {
                osc = step;
                steps = 2;
            }
        } else if (step <= 0.0) {
            steps = 2;
            step = osc / 2.0;
        } else {
            steps = ceilToInt(osc / step);
        }
    } else {
        if (steps == 0)
            steps = 1;
        if (osc < 0.0) {
            if (step <= 0.0) {
                osc = units::radiansFromDegrees(1.0);
                step = osc / steps;
            } else {
                osc = step;
                steps = 2;
            }
        } else if (step < 0.0) {
            step = osc / steps;
        }
    }
    return Sweep{osc, step, steps};
}

} // namespace bv

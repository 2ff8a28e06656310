#pragma once
// Unit conversions at the edges of the model (which is SI throughout: metres, radians,
// photons per square metre), and the physical constants the reference programs use. Degrees convert
// by dividing by the reference's RTD = 180/pi, so angles agree with nanoBragg's to the last bit.

#include <cmath>

namespace bv::units {

constexpr double kDegreesPerRadian = 180.0 * M_1_PI;
constexpr double kMetresPerAngstrom = 1e-10;
constexpr double kMetresPerMillimetre = 1e-3;
constexpr double kMetresPerMicron = 1e-6;
// hc in eV*Angstrom as the reference writes it: lambda[A] = 12398.42 / E[eV]
constexpr double kElectronvoltAngstrom = 12398.42;

// Avogadro's number per mole and the Thomson cross section r_e^2 in m^2, to the digits
// nanoBragg.c and nonBragg.c write
constexpr double kAvogadro = 6.02214179e23;
constexpr double kThomsonCrossSection = 7.94079248018965e-30;

constexpr double radiansFromDegrees(double degrees) { return degrees / kDegreesPerRadian; }
constexpr double degreesFromRadians(double radians) { return radians * kDegreesPerRadian; }

} // namespace bv::units

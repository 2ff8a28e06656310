"""What the module says before a run (compute/run/RunNotices.h, python/RunWarnings.h): a value
that looks like a slip of units is a UserWarning raised before the GPU works, the run goes on
with the reference's meaning; with warnings made errors, the run does not start."""
import unittest
import warnings

import braggview


class Notices(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.sim = braggview.Simulator(device="cpu")

    def test_unit_slips_warn_and_the_run_goes_on(self):
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            image = self.sim.simulate(cell=(100, 100, 100, 90, 90, 90), default_F=1,
                                      detpixels=16, energy=12.4, distance=50)
        texts = [str(w.message) for w in said if issubclass(w.category, UserWarning)]
        self.assertEqual(image.shape, (16, 16))
        self.assertTrue(any("keV given as eV? (12.4 keV is 0.999873 A)" in t for t in texts),
                        texts)

    def test_a_long_run_is_refused_when_warnings_are_errors(self):
        # -distance 0.01: 3000 x 3000 sub-pixels on a 1024 x 1024 detector, days on a CPU;
        # its notices come first, and as errors they stop it before the GPU is given work
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with self.assertRaises(UserWarning) as raised:
                self.sim.simulate(cell=(100, 100, 100, 90, 90, 90), default_F=1, distance=0.01)
        self.assertIn("metres typed as mm", str(raised.exception))


if __name__ == "__main__":
    unittest.main()

"""The Python module braggview, as a script would use it (ctest: python.module).

Run with PYTHONPATH pointing at the built module and BRAGGVIEW_HEADLESS at the headless
program (tests/python/CMakeLists.txt sets both)."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

import braggview

HEADLESS = os.environ["BRAGGVIEW_HEADLESS"].split()
CUBIC = ("-cell 100 100 100 90 90 90 -lambda 6.2 -N 5 -default_F 100 -distance 100 "
         "-misset 10 20 30")


def headless_float_image(args, fast, slow):
    """The float image the headless program writes for the same arguments."""
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(HEADLESS + args.split() + ["-floatfile", "f.bin", "-nonoise", "-nopgm",
                                                  "-noprogress", "-intfile", "i.img"],
                       cwd=work, check=True, stdout=subprocess.DEVNULL)
        return np.fromfile(os.path.join(work, "f.bin"), dtype="<f4").reshape(slow, fast)


class TestModule(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.sim = braggview.Simulator(precision="precise")

    def test_image_is_the_headless_float_image_bit_for_bit(self):
        args = CUBIC + " -detpixels_f 96 -detpixels_s 64 -oversample 2"
        image = self.sim.simulate(args)
        self.assertEqual(image.shape, (64, 96))  # [slow, fast]
        self.assertEqual(image.dtype, np.float32)
        self.assertTrue(image.flags["C_CONTIGUOUS"])
        expected = headless_float_image(args, 96, 64)
        self.assertGreater(expected.max(), 0.0)
        np.testing.assert_array_equal(image, expected)

    def test_keywords_state_the_same_experiment(self):
        from_text = self.sim.simulate(CUBIC + " -detpixels 64 -nopolar")
        from_keywords = self.sim.simulate(cell=(100, 100, 100, 90, 90, 90), lambda_=6.2, N=5,
                                          default_F=100, distance=100, misset=[10, 20, 30],
                                          detpixels=64, nopolar=True, nointerpolate=False)
        np.testing.assert_array_equal(from_text, from_keywords)
        # a list of words too
        np.testing.assert_array_equal(self.sim.simulate(CUBIC.split() + ["-detpixels", "64",
                                                                         "-nopolar"]), from_text)

    def test_one_recording_serves_every_call_of_a_size(self):
        sim = braggview.Simulator(precision="fast")
        for distance in (90, 100, 110):
            sim.simulate(CUBIC + f" -detpixels 48 -distance {distance}")
        self.assertEqual(sim.record_count, 1)
        self.assertGreater(sim.gpu_ms, 0.0)
        sim.simulate(CUBIC + " -detpixels 40")  # a new size: buffers and commands anew
        self.assertEqual(sim.record_count, 2)

    def test_the_array_owns_its_pixels_after_the_simulator_moves_on(self):
        first = self.sim.simulate(CUBIC + " -detpixels 32")
        kept = first.copy()
        self.sim.simulate(CUBIC + " -detpixels 32 -distance 50")
        np.testing.assert_array_equal(first, kept)

    def test_bad_input_raises_with_the_reason(self):
        with self.assertRaises(braggview.Error) as caught:
            self.sim.simulate("-cell 100 100 100 10 10 170 -detpixels 16")
        self.assertIn("-cell", str(caught.exception))
        self.assertTrue(issubclass(braggview.Error, ValueError))
        with self.assertRaises(braggview.Error):
            self.sim.simulate("-distance")  # a flag without its value
        with self.assertRaises(braggview.Error):
            braggview.Simulator(precision="quad")

    def test_example_writes_a_labelled_dataset(self):
        example = os.path.join(os.path.dirname(__file__), "..", "..", "python", "examples",
                               "make_dataset.py")
        with tempfile.TemporaryDirectory() as out:
            subprocess.run([sys.executable, example, out, "3", "32"], check=True,
                           stdout=subprocess.DEVNULL)
            images = np.load(os.path.join(out, "images.npy"))
            with open(os.path.join(out, "labels.json")) as f:
                labels = json.load(f)
            self.assertEqual(images.shape, (3, 32, 32))
            self.assertEqual([entry["index"] for entry in labels["images"]], [0, 1, 2])
            # each label is the orientation of its image: simulated again, the same pixels
            sim = braggview.Simulator(precision="fast")
            crystal = labels["crystal"]
            second = labels["images"][1]
            again = sim.simulate(cell=tuple(crystal["cell"]), N=crystal["N"],
                                 default_F=crystal["default_F"], lambda_=crystal["lambda"],
                                 distance=crystal["distance"], pixel=crystal["pixel"],
                                 detpixels=32, mosaic=crystal["mosaic"],
                                 mosaic_dom=crystal["mosaic_dom"],
                                 mosaic_seed=crystal["mosaic_seed"],
                                 misset=tuple(second["misset_degrees"]))
            np.testing.assert_array_equal(images[1], again)
            self.assertFalse(np.array_equal(images[0], images[1]))


if __name__ == "__main__":
    unittest.main(verbosity=2)

"""The Python module braggview, as a script would use it (ctest: python.module).

Run with PYTHONPATH pointing at the built module and BRAGGVIEW_HEADLESS at the headless
program (tests/python/CMakeLists.txt sets both)."""
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import unittest
import warnings

import numpy as np

import braggview

HEADLESS = os.environ["BRAGGVIEW_HEADLESS"].split()
CUBIC = ("-cell 100 100 100 90 90 90 -lambda 6.2 -N 5 -default_F 100 -distance 100 "
         "-misset 10 20 30")


def headless_float_image(args, fast, slow):
    """The float image the headless program writes for the same arguments (a string or a
    list of words; the files are named before them, so that a -misset_seed stays last)."""
    words = args.split() if isinstance(args, str) else list(args)
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(HEADLESS + ["-floatfile", "f.bin", "-nonoise", "-nopgm", "-noprogress",
                                   "-intfile", "i.img"] + words,
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
            subprocess.run([sys.executable, example, out, "3", "32", "11"], check=True,
                           stdout=subprocess.DEVNULL)
            images = np.load(os.path.join(out, "images.npy"))
            with open(os.path.join(out, "labels.json")) as f:
                labels = json.load(f)
            self.assertEqual(images.shape, (3, 32, 32))
            self.assertEqual([entry["index"] for entry in labels["images"]], [0, 1, 2])
            self.assertEqual(labels["seed"], 11)
            # each label's command line is its image: the headless program makes the same
            # pixels from it
            second = labels["images"][1]
            self.assertTrue(second["command"].startswith("braggview --headless "))
            self.assertIn("-misset random", second["command"])
            np.testing.assert_array_equal(images[1],
                                          headless_float_image(second["arguments"], 32, 32))
            # and the angles are that image's orientation, as a script would state them
            sim = braggview.Simulator(precision="fast")
            again = sim.simulate(second["arguments"])
            self.assertEqual(list(sim.misset), second["misset_degrees"])
            np.testing.assert_array_equal(images[1], again)
            self.assertFalse(np.array_equal(images[0], images[1]))


class TestRandomMisset(unittest.TestCase):
    """misset="random": each call a new orientation of the Simulator's own sequence."""
    ARGS = ("-cell 100 100 100 90 90 90 -lambda 1 -N 5 -default_F 100 -distance 100 "
            "-detpixels 24 -misset random")

    def images(self, sim, count, args=None):
        return [sim.simulate(args or self.ARGS) for _ in range(count)]

    def test_each_call_draws_a_new_orientation(self):
        sim = braggview.Simulator(precision="fast", seed=3)
        images = self.images(sim, 6)  # within one second: the reference's seed is the time
        self.assertEqual(len({image.tobytes() for image in images}), 6)

    def test_a_seed_gives_the_same_sequence_again(self):
        first = self.images(braggview.Simulator(precision="fast", seed=42), 3)
        again = braggview.Simulator(precision="fast", seed=42)
        self.assertEqual(again.seed, 42)
        for image, expected in zip(self.images(again, 3), first):
            np.testing.assert_array_equal(image, expected)
        other = self.images(braggview.Simulator(precision="fast", seed=43), 1)[0]
        self.assertFalse(np.array_equal(other, first[0]))
        # without a seed, one of its own, which it tells
        self.assertIsInstance(braggview.Simulator(precision="fast").seed, int)
        for bad in (-1, 2**64, 1.5, "7"):
            with self.assertRaises(braggview.Error):
                braggview.Simulator(precision="fast", seed=bad)

    def test_the_command_is_the_headless_run_of_the_same_image(self):
        sim = braggview.Simulator(precision="precise", seed=5)
        image = sim.simulate(self.ARGS)
        self.assertIn("-misset_seed", sim.command)
        self.assertEqual(len(sim.misset), 3)
        np.testing.assert_array_equal(image, headless_float_image(sim.command, 24, 24))

    def test_misset_seed_keeps_the_references_meaning(self):
        # -misset_seed N: the orientation of that seed, every call, as the headless program's
        sim = braggview.Simulator(precision="precise", seed=5)
        args = self.ARGS + " -misset_seed 77"
        first, second = self.images(sim, 2, args)
        np.testing.assert_array_equal(first, second)
        np.testing.assert_array_equal(first, headless_float_image(args, 24, 24))
        np.testing.assert_array_equal(
            first, sim.simulate(self.ARGS.split() + ["-detpixels", "24"], misset_seed=77))


class TestFrontEdges(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.sim = braggview.Simulator(precision="fast")

    def test_a_usage_stop_gives_its_reason_without_the_usage(self):
        with self.assertRaises(braggview.Error) as caught:
            self.sim.simulate("-cell 100 100 100 90 90 90 -detpixels 16")  # no default_F
        message = str(caught.exception)
        self.assertTrue(message.startswith("no structure factors"), message)
        self.assertIn("-default_F", message)
        self.assertEqual(len(message.splitlines()), 1)
        with self.assertRaises(braggview.Error) as caught:
            self.sim.simulate(default_F=100, detpixels=16)  # no cell
        self.assertTrue(str(caught.exception).startswith("no unit cell"))

    def test_file_options_are_refused_and_nothing_is_written(self):
        with tempfile.TemporaryDirectory() as work:
            here = os.getcwd()
            os.chdir(work)
            try:
                for option, value in (("noisefile", "n.img"), ("intfile", "i.img"),
                                      ("floatfile", "f.bin"), ("pgmfile", "p.pgm"),
                                      ("cbffile", "c.cbf"), ("nexusfile", "x.h5"),
                                      ("floatimage", "g.bin"), ("scale", 2), ("adc", 0)):
                    with self.assertRaises(braggview.Error) as caught:
                        self.sim.simulate(CUBIC + " -detpixels 16", **{option: value})
                    self.assertIn("writes no files", str(caught.exception))
                self.assertEqual(os.listdir(work), [])
                # the options that ask for no file stay accepted
                self.sim.simulate(CUBIC + " -detpixels 16 -nonoise -nopgm")
            finally:
                os.chdir(here)

    def test_ctrl_c_cancels_a_long_run(self):
        # hours of work on a CPU device: without the cancel this test would run past its
        # ctest timeout
        heavy = ("-cell 100 100 100 90 90 90 -lambda 1 -N 5 -default_F 100 -distance 100 "
                 "-detpixels 256 -oversample 20 -mosaic 1 -mosaic_dom 1000 -phi 0 -osc 1 "
                 "-phisteps 20")
        sim = braggview.Simulator(precision="fast")
        timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
        timer.start()
        try:
            with self.assertRaises(KeyboardInterrupt):
                sim.simulate(heavy)
        finally:
            timer.cancel()
        # the Simulator goes on as before: the next image is a fresh Simulator's
        small = CUBIC + " -detpixels 32"
        np.testing.assert_array_equal(sim.simulate(small),
                                      braggview.Simulator(precision="fast").simulate(small))


class TestRefine(unittest.TestCase):
    """refine(): the headless program's -refine on the Simulator's device."""
    FRAME = ["-default_F", "100", "-lambda", "1", "-detpixels", "128", "-pixel", "0.2",
             "-phi", "0", "-osc", "0.5", "-phisteps", "2", "-oversample", "1", "-fluence", "1e28",
             "-cell", "50", "60", "70", "90", "90", "90", "-misset", "10", "20", "30", "-N", "10"]

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.TemporaryDirectory()
        # the measured frame: the truth at 80 mm with Poisson noise
        subprocess.run(HEADLESS + cls.FRAME + ["-distance", "80", "-seed", "3", "-nopgm",
                                               "-noprogress", "-cbffile", "truth.cbf"],
                       cwd=cls.work.name, check=True, stdout=subprocess.DEVNULL)
        cls.truth = os.path.join(cls.work.name, "truth.cbf")
        cls.sim = braggview.Simulator(precision="fast")

    @classmethod
    def tearDownClass(cls):
        cls.work.cleanup()

    def test_the_fit_is_the_headless_programs(self):
        start = self.FRAME + ["-distance", "80.3", "-Xbeam", "12.86", "-Ybeam", "12.74",
                              "-measured", self.truth, "-refine", "distance,beam"]
        with tempfile.TemporaryDirectory() as work:
            report = os.path.join(work, "py.json")
            fit = self.sim.refine(start, fit_report=report)
            subprocess.run(HEADLESS + start + ["-precision", "fast", "-noprogress",
                                               "-fit_report", "cli.json"],
                           cwd=work, check=True, stdout=subprocess.DEVNULL)
            with open(report) as f:
                written = json.load(f)
            with open(os.path.join(work, "cli.json")) as f:
                headless = json.load(f)
        values = {p["name"]: p["value"] for p in fit["parameters"]}
        self.assertEqual(sorted(values), ["background", "beam_x", "beam_y", "distance", "scale"])
        self.assertAlmostEqual(values["distance"], 80.0, delta=0.05)
        self.assertEqual(written, fit)  # the dict is the file
        # the same device, precision and words: the same fit to the last digit
        for mine, theirs in zip(fit["parameters"], headless["parameters"]):
            self.assertEqual(mine["name"], theirs["name"])
            self.assertAlmostEqual(mine["value"], theirs["value"], places=9)
        # the Simulator goes on: its next image is a fresh Simulator's
        small = CUBIC + " -detpixels 32"
        np.testing.assert_array_equal(self.sim.simulate(small),
                                      braggview.Simulator(precision="fast").simulate(small))

    def test_bad_requests_raise_before_any_rendering(self):
        with tempfile.TemporaryDirectory() as work:
            report = os.path.join(work, "fit.json")
            with self.assertRaisesRegex(braggview.Error, "name the groups to fit"):
                self.sim.refine(self.FRAME, measured=self.truth, fit_report=report)
            with self.assertRaisesRegex(braggview.Error, "nothere.cbf: cannot open"):
                self.sim.refine(self.FRAME, measured=os.path.join(work, "nothere.cbf"),
                                refine="distance", fit_report=report)
            with self.assertRaisesRegex(braggview.Error, "-floatfile: refine\\(\\) writes no images"):
                self.sim.refine(self.FRAME, measured=self.truth, refine="distance",
                                floatfile=os.path.join(work, "x.bin"))
            with self.assertRaisesRegex(braggview.Error, "no parameter group"):
                self.sim.refine(self.FRAME, measured=self.truth, refine="colour")
            # what one frame cannot tell apart is a warning before the fit; made an error,
            # the fit does not start
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                with self.assertRaisesRegex(UserWarning, "detector_rotation with orientation"):
                    self.sim.refine(self.FRAME, measured=self.truth, fit_report=report,
                                    refine="detector_rotation,orientation")
            self.assertEqual(os.listdir(work), [])

    def test_ctrl_c_stops_the_fit_and_writes_nothing(self):
        # a fit of every group on a 512-pixel frame: minutes on a CPU device
        big = [w for w in self.FRAME]
        big[big.index("-detpixels") + 1] = "512"
        with tempfile.TemporaryDirectory() as work:
            subprocess.run(HEADLESS + big + ["-distance", "80", "-nopgm", "-noprogress",
                                             "-cbffile", "big.cbf"],
                           cwd=work, check=True, stdout=subprocess.DEVNULL)
            report = os.path.join(work, "fit.json")
            timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
            timer.start()
            try:
                with self.assertRaises(KeyboardInterrupt):
                    self.sim.refine(big, distance=80.3, measured=os.path.join(work, "big.cbf"),
                                    refine="distance,beam,orientation,cell,mosaic,ncells",
                                    fit_report=report)
            finally:
                timer.cancel()
            self.assertFalse(os.path.exists(report))


if __name__ == "__main__":
    unittest.main(verbosity=2)

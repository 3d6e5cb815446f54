"""ml/gpu-call.sh: the tree trimmed to ml/ and put back exactly, files cut into parts that fit and joined back bit
for bit (a missing or altered part refused), in a throwaway git repository; and the cards compared side by side."""
import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "gpu-call.sh"


def sh(cwd: Path, *args: str, ok: bool = True, env: dict | None = None) -> subprocess.CompletedProcess:
    r = subprocess.run(["bash", str(cwd / "ml" / "gpu-call.sh"), *args], cwd=cwd, capture_output=True, text=True,
                       env={**os.environ, **(env or {})})
    if ok and r.returncode != 0:
        raise AssertionError(f"gpu-call.sh {' '.join(args)} failed: {r.stderr}")
    return r


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


class GpuCallTest(unittest.TestCase):
    def setUp(self):
        self.repo = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.repo)
        (self.repo / "ml" / "diagrodl_ml").mkdir(parents=True)
        shutil.copy(SCRIPT, self.repo / "ml" / "gpu-call.sh")
        (self.repo / "ml" / "diagrodl_ml" / "x.py").write_text("x = 1\n")
        (self.repo / "models").mkdir()
        (self.repo / "models" / "big.onnx").write_bytes(os.urandom(4096))
        (self.repo / "README.md").write_text("readme\n")
        (self.repo / "with space.txt").write_text("s\n")
        git(self.repo, "init", "-q")
        git(self.repo, "-c", "user.name=t", "-c", "user.email=t@t", "add", "-A")
        git(self.repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "start")
        (self.repo / ".git" / "info").mkdir(exist_ok=True)
        (self.repo / ".git" / "info" / "exclude").write_text("# mine\n/local/\n")

    def test_trim_leaves_only_ml_and_restore_puts_everything_back(self):
        files = git(self.repo, "ls-files")
        sh(self.repo, "trim")
        self.assertEqual(git(self.repo, "ls-files").split(), ["ml/diagrodl_ml/x.py", "ml/gpu-call.sh"])
        # nothing outside ml/ travels as an untracked file either
        self.assertEqual(git(self.repo, "ls-files", "--others", "--exclude-standard"), "")
        r = sh(self.repo, "trim", ok=False)
        self.assertNotEqual(r.returncode, 0)
        sh(self.repo, "restore")
        self.assertEqual(git(self.repo, "ls-files"), files)
        self.assertEqual(git(self.repo, "status", "--porcelain"), "")
        self.assertEqual((self.repo / ".git" / "info" / "exclude").read_text(), "# mine\n/local/\n")

    def test_trim_refuses_a_staged_change(self):
        files = git(self.repo, "ls-files")
        (self.repo / "README.md").write_text("changed\n")
        git(self.repo, "add", "README.md")
        r = sh(self.repo, "trim", ok=False)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("index differs", r.stderr)
        self.assertEqual(git(self.repo, "ls-files"), files)

    def test_cut_and_join_round_trip(self):
        src, dest, back = self.repo / "src", self.repo / "parts" / "p", self.repo / "back"
        (src / "sub").mkdir(parents=True)
        blobs = {"a.bin": os.urandom(2_500_000), "sub/b.bin": os.urandom(1_200_000), "c.json": b"{}"}
        for name, data in blobs.items():
            (src / name).write_bytes(data)
        sh(self.repo, "cut", str(src), str(dest), "1", "2")
        folders = sorted(dest.parent.iterdir())
        self.assertGreaterEqual(len(folders), 2)
        for f in folders:
            size = sum(p.stat().st_size for p in f.iterdir() if p.name != "MANIFEST")
            self.assertLessEqual(size, 2 * 1048576)
            self.assertEqual((f / "MANIFEST").read_text(), (folders[0] / "MANIFEST").read_text())
        sh(self.repo, "join", str(back), *map(str, reversed(folders)))
        for name, data in blobs.items():
            self.assertEqual((back / name).read_bytes(), data)
        # a part missing (the second call found a fresh machine) or altered: refused, nothing written
        r = sh(self.repo, "join", str(self.repo / "x"), str(folders[-1]), ok=False)
        self.assertIn("missing", r.stderr)
        self.assertFalse((self.repo / "x").exists())
        part = sorted(folders[0].glob("part-*"))[0]
        raw = bytearray(part.read_bytes())
        raw[10] ^= 1
        part.write_bytes(bytes(raw))
        r = sh(self.repo, "join", str(self.repo / "y"), *map(str, folders), ok=False)
        self.assertIn("do not match", r.stderr)
        self.assertFalse((self.repo / "y").exists())

    def test_compare_prints_each_card_of_each_folder(self):
        import json
        a, b = self.repo / "a", self.repo / "b"
        a.mkdir(), b.mkdir()
        field = {"top1": 0.6, "accepted_share": 0.5, "accuracy_accepted": 0.85}
        (a / "mobilenet.card.json").write_text(json.dumps({"metrics": {"accuracy": 0.97, "min_recall": 0.9},
            "out_of_distribution": {"evaluation": {"field_val_all": field, "other_crop_holdout": {"refused_share": 0.94}}}}))
        # nothing given on field photos: no share right when given
        (b / "mobilenet.card.json").write_text(json.dumps({"metrics": {"accuracy": 0.1, "min_recall": 0.0},
            "field_evaluation": {"field_val_all": {**field, "accepted_share": 0.0, "accuracy_accepted": None}}}))
        rows = sh(self.repo, "compare", str(a), str(b)).stdout.splitlines()
        self.assertEqual(len(rows), 3)
        self.assertEqual(rows[1].split(" | "), ["mobilenet", str(a), "0.9700", "0.9000", "0.6000/0.5000/0.8500", "-",
                                                "-", "-", "0.9400"])
        self.assertEqual(rows[2].split(" | ")[2:5], ["0.1000", "0.0000", "0.6000/0.0000/-"])


if __name__ == "__main__":
    unittest.main()

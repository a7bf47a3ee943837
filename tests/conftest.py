import sys
from pathlib import Path

# tests/oracle.py and other helpers are imported as plain modules
sys.path.insert(0, str(Path(__file__).parent))

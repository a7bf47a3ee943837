"""``python -m ginrummy``: the ``ginrummy`` command (the console script's ``ginrummy.cli:main``)."""

from ginrummy.cli import main

if __name__ == "__main__":
    main()

"""``python -m spider_solver`` runs the ``spider-solve`` command line."""

from spider_solver._console import main

if __name__ == "__main__":
    main()

#include <exception>
int festival_main(int argc, char **argv);
int main(int argc, char **argv) {
    try { return festival_main(argc, argv); } catch (...) { return 3; }
}
